// FASTA / FASTQ read from a file through zlib: the input compressed here (so the fuzzer's text
// reaches the parser through gzip) or, when the first byte says so, taken as it is (damaged gzip
// streams, plain text).
#include <zlib.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "fasta_check.h"
#include "fuzz_input.h"

namespace {

std::vector<std::uint8_t> gzip(const std::uint8_t* data, std::size_t size) {
  z_stream z{};
  if (deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) std::abort();
  std::vector<std::uint8_t> out(deflateBound(&z, size) + 32);
  z.next_in = const_cast<Bytef*>(data);
  z.avail_in = static_cast<uInt>(size);
  z.next_out = out.data();
  z.avail_out = static_cast<uInt>(out.size());
  if (deflate(&z, Z_FINISH) != Z_STREAM_END) std::abort();
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::uint8_t options = dpx::fuzz::take_byte(&data, &size);
  const std::vector<std::uint8_t> z = options & 0x80 ? std::vector<std::uint8_t>(data, data + size) : gzip(data, size);
  dpx::cli::NamedSequences out;
  std::string error;
  const bool read = dpx::cli::read_sequences(dpx::fuzz::as_file(z.data(), z.size()), dpx::fuzz::alphabet_for(options), &out, &error);
  dpx::fuzz::check_sequences(read, out, error);
  return 0;
}

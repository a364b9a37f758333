// FASTA / FASTQ as dpx-align reads them (plain text, handed to the reader in pieces of a size the
// input chooses, as file reads would cut it): any bytes give records or a message, and what is
// read keeps the reader's promises.
#include <cstdint>
#include <string>
#include <string_view>

#include "fasta_check.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::uint8_t options = dpx::fuzz::take_byte(&data, &size);
  const std::size_t chunk = 1 + dpx::fuzz::take_byte(&data, &size);
  dpx::cli::NamedSequences out;
  std::string error;
  const bool read = dpx::cli::parse_sequences(std::string_view(reinterpret_cast<const char*>(data), size), chunk, "fuzz.fa",
                                              dpx::fuzz::alphabet_for(options), &out, &error);
  dpx::fuzz::check_sequences(read, out, error);
  return 0;
}

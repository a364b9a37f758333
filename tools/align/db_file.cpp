#include "db_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstddef>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "output_file.h"

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the database file is little-endian");

namespace dpx {
namespace cli {
namespace {

constexpr char kMagic[5] = {'D', 'P', 'X', 'D', 'B'};
constexpr std::uint8_t kVersion = 2;
constexpr std::size_t kRuleBytes = 512;
constexpr std::uint64_t kMaxRuleText = 4096;  // far beyond what letter_options() writes

struct Header {
  char magic[5];
  std::uint8_t version;
  std::uint8_t zero[2];
  std::uint64_t sequences, letters, name_bytes, stand_ins, rule_bytes;
  char rule[kRuleBytes];
  std::uint32_t index_crc, names_crc, letters_crc;
  std::uint32_t header_crc;  // of every byte before it
};
static_assert(sizeof(Header) % 8 == 0, "sections start 8-byte aligned");
static_assert(offsetof(Header, header_crc) + 4 == sizeof(Header), "the header's checksum ends it");

// Where each section starts; `end` is the file's size. False when the counts cannot fit in `limit`
// bytes (so nothing below overflows on a corrupt header).
struct Layout {
  std::uint64_t text, offsets, name_ends, lines, original, names, letters, end;
};

std::uint64_t aligned(std::uint64_t at) { return (at + 7) & ~std::uint64_t(7); }

bool layout_of(const Header& h, std::uint64_t limit, Layout* out) {
  if (h.sequences > limit / 8 || h.letters > limit || h.name_bytes > limit || h.rule_bytes > limit) return false;
  const std::uint64_t n = h.sequences;
  Layout l;
  l.text = sizeof(Header);
  l.offsets = aligned(l.text + h.rule_bytes);
  l.name_ends = l.offsets + 8 * (n + 1);
  l.lines = l.name_ends + 8 * (n + 1);
  l.original = l.lines + 8 * n;
  l.names = aligned(l.original + 4 * n);
  l.letters = aligned(l.names + h.name_bytes);
  l.end = l.letters + h.letters;
  *out = l;
  return true;
}

std::uint32_t crc_of(const void* bytes, std::uint64_t size, std::uint32_t crc = 0) {
  return static_cast<std::uint32_t>(crc32_z(crc, static_cast<const Bytef*>(bytes), static_cast<z_size_t>(size)));
}

std::uint32_t header_crc_of(const Header& h) { return crc_of(&h, offsetof(Header, header_crc)); }

// A read-only mapping of a whole file, unmapped when it goes.
class MappedFile {
 public:
  ~MappedFile() {
    if (data_ != nullptr) munmap(data_, size_);
  }
  bool open(const std::string& path, std::string* error) {
    const int fd = ::open(path.c_str(), O_RDONLY);
    struct stat st {};
    if (fd < 0 || fstat(fd, &st) != 0) {
      *error = "cannot read " + path + ": " + std::strerror(errno);
      if (fd >= 0) close(fd);
      return false;
    }
    size_ = static_cast<std::size_t>(st.st_size);
    void* p = size_ > 0 ? mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0) : nullptr;
    close(fd);
    if (p == MAP_FAILED) {
      *error = "cannot map " + path + ": " + std::strerror(errno);
      return false;
    }
    data_ = p;
    return true;
  }
  const char* bytes() const { return static_cast<const char*>(data_); }
  std::size_t size() const { return size_; }

 private:
  void* data_ = nullptr;
  std::size_t size_ = 0;
};

// An array of `count` T at byte `at` of `bytes`, copied out (a file's sections need not be
// aligned in memory the way T is).
template <typename T>
std::vector<T> array_at(const char* bytes, std::uint64_t at, std::uint64_t count) {
  std::vector<T> v(count);
  if (count > 0) std::memcpy(v.data(), bytes + at, count * sizeof(T));
  return v;
}

// `ends` (count + 1 of them) starts at 0, rises at every step and ends at `total`.
bool valid_ends(const std::vector<std::uint64_t>& ends, std::uint64_t total) {
  if (ends.front() != 0 || ends.back() != total) return false;
  for (std::size_t i = 1; i < ends.size(); ++i)
    if (ends[i] <= ends[i - 1]) return false;
  return true;
}

// Every index below the count, none twice.
bool valid_permutation(const std::vector<std::uint32_t>& original) {
  std::vector<bool> seen(original.size());
  for (std::uint32_t o : original) {
    if (o >= original.size() || seen[o]) return false;
    seen[o] = true;
  }
  return true;
}

// Header lines from 1 up, rising in the FASTA order.
bool valid_lines(const std::vector<std::uint64_t>& lines, const std::vector<std::uint32_t>& original) {
  std::vector<std::uint64_t> in_fasta_order(lines.size());
  for (std::size_t p = 0; p < lines.size(); ++p) in_fasta_order[original[p]] = lines[p];
  for (std::size_t i = 0; i < lines.size(); ++i)
    if (in_fasta_order[i] <= (i > 0 ? in_fasta_order[i - 1] : 0)) return false;
  return true;
}

std::string byte_shown(unsigned char c) {
  if (std::isprint(c)) return std::string("'") + static_cast<char>(c) + "'";
  const char* digits = "0123456789abcdef";
  return std::string("byte 0x") + digits[c >> 4] + digits[c & 15];
}

// How the rule with `identity` reads byte `c`, e.g. "reads it as 'X' (an unknown letter's wildcard)".
std::string reading(const std::string& identity, int c) {
  if (identity[c] == 0) return "refuses it";
  return "reads it as " + byte_shown(static_cast<unsigned char>(identity[c])) +
         (identity[kRuleBytes / 2 + c] != 0 ? " (the wildcard for an unknown letter)" : "");
}

// The first bytes (up to three) the two rules read differently.
std::string rule_difference(const std::string& file, const std::string& here) {
  std::string out;
  int shown = 0;
  for (int c = 0; c < 256 && shown < 3; ++c) {
    if (file[c] == here[c] && file[256 + c] == here[256 + c]) continue;
    out += std::string(shown++ > 0 ? "; " : "") + byte_shown(static_cast<unsigned char>(c)) + ": the file " +
           reading(file, c) + ", this search " + reading(here, c);
  }
  return out;
}

// The first name holding a control character (none can be written in a table row), or -1.
std::int64_t name_with_control(const char* names, const std::vector<std::uint64_t>& ends) {
  for (std::size_t p = 0; p + 1 < ends.size(); ++p)
    for (std::uint64_t i = ends[p]; i < ends[p + 1]; ++i)
      if (static_cast<unsigned char>(names[i]) < 0x20 || names[i] == 0x7f) return static_cast<std::int64_t>(p);
  return -1;
}

// The bytes the rule with `identity` reads letters as: no other byte can be in a database.
std::array<bool, 256> letters_given(const std::string& identity) {
  std::array<bool, 256> given{};
  for (int c = 0; c < 256; ++c)
    if (identity[c] != 0) given[static_cast<unsigned char>(identity[c])] = true;
  return given;
}

// The letters' checksum, and the offset of the first byte the rule never gives (`size` when none).
struct LetterScan {
  std::uint32_t crc;
  std::uint64_t bad;
};

// Scans the letters in chunks of at least 16 MiB on every hardware thread: on a large database
// the checks cost a fraction of reading it.
LetterScan scan_letters(const char* letters, std::uint64_t size, const std::array<bool, 256>& given) {
  const std::uint64_t threads = std::max(1u, std::thread::hardware_concurrency());
  const std::uint64_t chunks = std::min(threads, std::max<std::uint64_t>(1, size >> 24));
  std::vector<LetterScan> part(chunks);
  auto scan = [&](std::uint64_t c) {
    const std::uint64_t from = size * c / chunks, to = size * (c + 1) / chunks;
    part[c] = {crc_of(letters + from, to - from), size};
    for (std::uint64_t i = from; i < to; ++i) {
      if (!given[static_cast<unsigned char>(letters[i])]) {
        part[c].bad = i;
        break;
      }
    }
  };
  std::vector<std::thread> started;
  for (std::uint64_t c = 1; c < chunks; ++c) {
    try {
      started.emplace_back(scan, c);
    } catch (const std::system_error&) {  // no thread to be had: this one does the chunk
      scan(c);
    }
  }
  scan(0);
  for (std::thread& t : started) t.join();
  LetterScan all = part[0];
  for (std::uint64_t c = 1; c < chunks; ++c) {
    const std::uint64_t length = size * (c + 1) / chunks - size * c / chunks;
    all.crc = static_cast<std::uint32_t>(crc32_combine(all.crc, part[c].crc, static_cast<z_off_t>(length)));
    all.bad = std::min(all.bad, part[c].bad);
  }
  return all;
}

// Writes a file's sections to `f`, or (f null) takes their checksums.
class SectionWriter {
 public:
  explicit SectionWriter(std::FILE* f) : f_(f) {}
  template <typename T>
  void put(const T* items, std::size_t n) {
    if (n == 0) return;
    if (f_ != nullptr) std::fwrite(items, sizeof(T), n, f_);
    else crc_ = crc_of(items, n * sizeof(T), crc_);
    written_ += n * sizeof(T);
  }
  void pad() {
    static const char zeros[8] = {};
    put(zeros, aligned(written_) - written_);
  }
  std::uint32_t take_crc() { return std::exchange(crc_, 0); }

 private:
  std::FILE* f_;
  std::uint32_t crc_ = 0;
  std::uint64_t written_ = 0;
};

}  // namespace

bool is_database_file(const std::string& path) {
  if (path == "-") return false;
  char head[sizeof kMagic] = {};
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return false;
  const bool whole = std::fread(head, 1, sizeof head, f) == sizeof head;
  std::fclose(f);
  return whole && std::memcmp(head, kMagic, sizeof kMagic) == 0;
}

bool write_database(const std::string& path, const NamedSequences& db, const LetterRule& rule, std::string* error) {
  const std::size_t n = db.names.size();
  if (n > UINT32_MAX) {
    *error = path + ": more than " + std::to_string(UINT32_MAX) + " sequences";
    return false;
  }
  std::vector<std::uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return db.letters.length(a) < db.letters.length(b); });

  Header h{};
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  h.version = kVersion;
  h.sequences = n;
  h.letters = db.letters.total_length();
  h.stand_ins = db.stand_ins;
  h.rule_bytes = rule.text.size();
  std::memcpy(h.rule, rule.identity.data(), std::min(rule.identity.size(), kRuleBytes));
  std::vector<std::uint64_t> offsets{0}, name_ends{0}, lines;
  for (std::uint32_t i : order) {
    offsets.push_back(offsets.back() + db.letters.length(i));
    name_ends.push_back(name_ends.back() + db.names[i].size());
    lines.push_back(db.lines[i]);
  }
  h.name_bytes = name_ends.back();

  // The sections are made twice: for their checksums, which the header holds, then into the file.
  std::uint32_t crcs[3] = {};
  auto sections = [&](SectionWriter& w) {
    w.put(rule.text.data(), rule.text.size());
    w.pad();
    w.put(offsets.data(), offsets.size());
    w.put(name_ends.data(), name_ends.size());
    w.put(lines.data(), lines.size());
    w.put(order.data(), order.size());
    w.pad();
    crcs[0] = w.take_crc();
    for (std::uint32_t i : order) w.put(db.names[i].data(), db.names[i].size());
    w.pad();
    crcs[1] = w.take_crc();
    for (std::uint32_t i : order) w.put(db.letters.item(i), db.letters.length(i));
    crcs[2] = w.take_crc();
  };
  SectionWriter sums(nullptr);
  sections(sums);
  h.index_crc = crcs[0];
  h.names_crc = crcs[1];
  h.letters_crc = crcs[2];
  h.header_crc = header_crc_of(h);
  OutputFile out;
  if (!out.open(path, error)) return false;
  std::fwrite(&h, sizeof h, 1, out.get());
  SectionWriter file(out.get());
  sections(file);
  return out.commit(error);
}

void seal_database(std::string* bytes) {
  Header h;
  Layout l;
  if (bytes->size() < sizeof h) return;
  std::memcpy(&h, bytes->data(), sizeof h);
  if (layout_of(h, bytes->size(), &l) && l.end <= bytes->size()) {
    h.index_crc = crc_of(bytes->data() + l.text, l.names - l.text);
    h.names_crc = crc_of(bytes->data() + l.names, l.letters - l.names);
    h.letters_crc = crc_of(bytes->data() + l.letters, l.end - l.letters);
  }
  h.header_crc = header_crc_of(h);
  std::memcpy(&(*bytes)[0], &h, sizeof h);
}

bool read_database(const std::string& path, const LetterRule& rule, NamedSequences* out, std::string* error) {
  MappedFile file;
  return file.open(path, error) && read_database_bytes(file.bytes(), file.size(), path, rule, out, error);
}

bool read_database_bytes(const char* bytes, std::size_t size_bytes, const std::string& source, const LetterRule& rule,
                         NamedSequences* out, std::string* error) {
  auto fail = [&](const std::string& why) {
    *error = source + ": " + why;
    return false;
  };
  const std::string size = std::to_string(size_bytes) + " bytes";
  const std::string damaged = " (the file is damaged: run dpx-align makedb again)";
  Header h;
  if (size_bytes < offsetof(Header, zero)) return fail("truncated: " + size + ", shorter than the database header");
  std::memcpy(&h, bytes, offsetof(Header, zero));
  if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0) return fail("not a dpx-align database (no DPXDB magic)");
  if (h.version != kVersion) {
    return fail("database format version " + std::to_string(h.version) + "; this dpx-align reads version " +
                std::to_string(kVersion) + " (run dpx-align makedb again)");
  }
  if (size_bytes < sizeof h) return fail("truncated: " + size + ", shorter than the database header");
  std::memcpy(&h, bytes, sizeof h);
  if (h.header_crc != header_crc_of(h)) return fail("corrupt: the header's checksum does not match" + damaged);
  if (h.zero[0] != 0 || h.zero[1] != 0) return fail("corrupt: reserved header bytes are not zero" + damaged);
  if (h.rule_bytes > kMaxRuleText) return fail("corrupt: " + std::to_string(h.rule_bytes) + " bytes of letter options" + damaged);
  Layout l;
  if (!layout_of(h, size_bytes, &l) || l.end > size_bytes) return fail("truncated: " + size + ", fewer than its header describes");
  if (l.end < size_bytes) return fail("corrupt: " + size + ", more than the " + std::to_string(l.end) + " its header describes");
  const std::string made_with(bytes + l.text, h.rule_bytes);
  const std::string identity(h.rule, kRuleBytes);
  if (rule.identity.size() != kRuleBytes) return fail("the letter rule to compare with is not " + std::to_string(kRuleBytes) + " bytes");
  if (identity != rule.identity) {
    const std::string which = rule_difference(identity, rule.identity);
    if (made_with == rule.text) {
      return fail("made with the same letter options '" + made_with + "', which read letters differently now (" + which +
                  "): the matrix file changed since; run dpx-align makedb again");
    }
    return fail("made with letter options '" + made_with + "', which read letters differently from this search's '" +
                rule.text + "' (" + which + "); search with the same --matrix, --wildcard, --keep-case and "
                "--unknown-as-wildcard, or run dpx-align makedb again");
  }
  const struct {
    const char* name;
    std::uint64_t from, to;
    std::uint32_t crc;
  } sections[] = {{"index", l.text, l.names, h.index_crc}, {"names", l.names, l.letters, h.names_crc}};
  for (const auto& s : sections) {
    if (crc_of(bytes + s.from, s.to - s.from) != s.crc)
      return fail(std::string("corrupt: the checksum of its ") + s.name + " does not match" + damaged);
  }
  const char* letters = bytes + l.letters;
  const LetterScan scanned = scan_letters(letters, h.letters, letters_given(identity));
  if (scanned.crc != h.letters_crc) return fail("corrupt: the checksum of its letters does not match" + damaged);
  const std::uint64_t n = h.sequences;
  if (n == 0) return fail("no sequences (an empty database)");
  if (n > UINT32_MAX) return fail("corrupt: " + std::to_string(n) + " sequences" + damaged);
  if (h.stand_ins > h.letters) {
    return fail("corrupt: " + std::to_string(h.stand_ins) + " stand-ins for unknown letters, more than its " +
                std::to_string(h.letters) + " letters" + damaged);
  }
  if (h.stand_ins > 0 && identity.find('\1', kRuleBytes / 2) == std::string::npos) {
    return fail("corrupt: stand-ins for unknown letters under a rule without them" + damaged);
  }
  const auto offsets = array_at<std::uint64_t>(bytes, l.offsets, n + 1);
  const auto name_ends = array_at<std::uint64_t>(bytes, l.name_ends, n + 1);
  const auto lines = array_at<std::uint64_t>(bytes, l.lines, n);
  const auto original = array_at<std::uint32_t>(bytes, l.original, n);
  if (!valid_ends(offsets, h.letters)) return fail("corrupt: sequence offsets out of range or a sequence without letters" + damaged);
  if (!valid_ends(name_ends, h.name_bytes)) return fail("corrupt: name offsets out of range or an empty name" + damaged);
  if (!valid_permutation(original)) return fail("corrupt: original indices out of range or repeated" + damaged);
  if (!valid_lines(lines, original)) return fail("corrupt: header lines out of order" + damaged);
  for (std::uint64_t p = 1; p < n; ++p) {
    if (offsets[p + 1] - offsets[p] < offsets[p] - offsets[p - 1]) return fail("corrupt: sequences not sorted by length" + damaged);
  }
  const char* names = bytes + l.names;
  if (const std::int64_t p = name_with_control(names, name_ends); p >= 0) {
    return fail("corrupt: the name of sequence " + std::to_string(p) + " holds a control character" + damaged);
  }
  if (scanned.bad < h.letters) {
    return fail("corrupt: letter " + byte_shown(static_cast<unsigned char>(letters[scanned.bad])) + " at letter offset " +
                std::to_string(scanned.bad) + ", which '" + made_with + "' never gives" + damaged);
  }

  out->letters.reserve(h.letters);
  for (std::uint64_t p = 0; p < n; ++p) {
    out->names.emplace_back(names + name_ends[p], name_ends[p + 1] - name_ends[p]);
    out->lines.push_back(lines[p]);
    out->letters.add(letters + offsets[p], offsets[p + 1] - offsets[p]);
  }
  out->stand_ins = h.stand_ins;
  out->order = DatabaseOrder(std::vector<std::uint32_t>(original.begin(), original.end()), n);
  return true;
}

}  // namespace cli
}  // namespace dpx

#include "db_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

#include "output_file.h"

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the database file is little-endian");

namespace dpx {
namespace cli {
namespace {

constexpr char kMagic[5] = {'D', 'P', 'X', 'D', 'B'};
constexpr std::uint8_t kVersion = 1;
constexpr std::size_t kRuleBytes = 512;

struct Header {
  char magic[5];
  std::uint8_t version;
  std::uint8_t zero[2];
  std::uint64_t sequences, letters, name_bytes, stand_ins, rule_bytes;
  char rule[kRuleBytes];
};
static_assert(sizeof(Header) % 8 == 0, "sections start 8-byte aligned");

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

template <typename T>
const T* section(const MappedFile& f, std::uint64_t at) {
  return reinterpret_cast<const T*>(f.bytes() + at);
}

// `ends` (count + 1 of them) starts at 0, never falls and ends at `total`.
bool valid_ends(const std::uint64_t* ends, std::uint64_t count, std::uint64_t total) {
  if (ends[0] != 0 || ends[count] != total) return false;
  for (std::uint64_t i = 0; i < count; ++i)
    if (ends[i + 1] < ends[i]) return false;
  return true;
}

// Every index below `count`, none twice.
bool valid_permutation(const std::uint32_t* original, std::uint64_t count) {
  std::vector<bool> seen(count);
  for (std::uint64_t p = 0; p < count; ++p) {
    if (original[p] >= count || seen[original[p]]) return false;
    seen[original[p]] = true;
  }
  return true;
}

template <typename T>
void put(std::FILE* f, const T* items, std::size_t n) {
  if (n > 0) std::fwrite(items, sizeof(T), n, f);
}

void pad(std::FILE* f, std::uint64_t written) {
  static const char zeros[8] = {};
  put(f, zeros, aligned(written) - written);
}

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

  OutputFile out;
  if (!out.open(path, error)) return false;
  std::FILE* f = out.get();
  put(f, &h, 1);
  put(f, rule.text.data(), rule.text.size());
  pad(f, sizeof h + rule.text.size());
  put(f, offsets.data(), offsets.size());
  put(f, name_ends.data(), name_ends.size());
  put(f, lines.data(), lines.size());
  put(f, order.data(), order.size());
  pad(f, 4 * n);
  for (std::uint32_t i : order) put(f, db.names[i].data(), db.names[i].size());
  pad(f, h.name_bytes);
  for (std::uint32_t i : order) put(f, db.letters.item(i), db.letters.length(i));
  if (std::ferror(f)) {
    *error = "cannot write " + path + ": " + std::strerror(errno);
    return false;
  }
  return out.commit(error);
}

bool read_database(const std::string& path, const LetterRule& rule, NamedSequences* out, std::string* error) {
  MappedFile file;
  if (!file.open(path, error)) return false;
  auto fail = [&](const std::string& why) {
    *error = path + ": " + why;
    return false;
  };
  const std::string size = std::to_string(file.size()) + " bytes";
  Header h;
  if (file.size() < sizeof h) return fail("truncated: " + size + ", shorter than the database header");
  std::memcpy(&h, file.bytes(), sizeof h);
  if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0) return fail("not a dpx-align database (no DPXDB magic)");
  if (h.version != kVersion) {
    return fail("database format version " + std::to_string(h.version) + "; this dpx-align reads version " +
                std::to_string(kVersion) + " (run dpx-align makedb again)");
  }
  Layout l;
  if (!layout_of(h, file.size(), &l) || l.end > file.size()) return fail("truncated: " + size + ", fewer than its header describes");
  if (l.end < file.size()) return fail("corrupt: " + size + ", more than the " + std::to_string(l.end) + " its header describes");
  const std::string made_with(section<char>(file, l.text), h.rule_bytes);
  if (rule.identity.size() != kRuleBytes || std::memcmp(h.rule, rule.identity.data(), kRuleBytes) != 0) {
    return fail("made with letter options '" + made_with + "', which read letters differently from this search's '" +
                rule.text + "'; search with the same --matrix, --wildcard, --keep-case and --unknown-as-wildcard, "
                "or run dpx-align makedb again");
  }
  const std::uint64_t n = h.sequences;
  if (n == 0) return fail("no sequences (an empty database)");
  if (n > UINT32_MAX) return fail("corrupt: " + std::to_string(n) + " sequences");
  const auto* offsets = section<std::uint64_t>(file, l.offsets);
  const auto* name_ends = section<std::uint64_t>(file, l.name_ends);
  const auto* lines = section<std::uint64_t>(file, l.lines);
  const auto* original = section<std::uint32_t>(file, l.original);
  if (!valid_ends(offsets, n, h.letters)) return fail("corrupt: sequence offsets out of range");
  if (!valid_ends(name_ends, n, h.name_bytes)) return fail("corrupt: name offsets out of range");
  if (!valid_permutation(original, n)) return fail("corrupt: original indices out of range or repeated");

  const char* names = section<char>(file, l.names);
  const char* letters = section<char>(file, l.letters);
  out->letters.reserve(h.letters);
  for (std::uint64_t p = 0; p < n; ++p) {
    out->names.emplace_back(names + name_ends[p], name_ends[p + 1] - name_ends[p]);
    out->lines.push_back(lines[p]);
    out->letters.add(letters + offsets[p], offsets[p + 1] - offsets[p]);
  }
  out->stand_ins = h.stand_ins;
  out->order = DatabaseOrder(std::vector<std::uint32_t>(original, original + n), n);
  return true;
}

}  // namespace cli
}  // namespace dpx

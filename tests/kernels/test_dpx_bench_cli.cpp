// dpx-bench (the built program, found next to this test binary's build folder): every subcommand
// is listed once, on standard output; bad settings are refused before anything runs; JSON only
// where asked. Its options parsed into typed fields, its JSON valid whatever the text it holds, and
// CUDASW++4.0 run as its own scripts run it.
#include <gtest/gtest.h>
#include <json-glib/json-glib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "bench_args.h"
#include "bench_json.h"
#include "cudasw4_anchor.h"

namespace {

std::string program() {
  std::array<char, 4096> buf{};
  const ssize_t n = readlink("/proc/self/exe", buf.data(), buf.size() - 1);
  std::string self = n > 0 ? std::string(buf.data(), static_cast<std::size_t>(n)) : "";
  return self.substr(0, self.rfind('/')) + "/../../tools/dpx-bench";  // from build/tests/kernels
}

TEST(DpxBenchCli, HelpListsEachSubcommandOnce) {
  if (access(program().c_str(), X_OK) != 0) GTEST_SKIP() << "dpx-bench not built at " << program();
  FILE* p = popen((program() + " --help 2>/dev/null").c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::string out;
  std::array<char, 512> chunk{};
  while (std::fgets(chunk.data(), chunk.size(), p) != nullptr) out += chunk.data();
  EXPECT_EQ(pclose(p), 0) << out;
  std::map<std::string, int> listed;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("  ", 0) != 0) continue;  // subcommands are indented
    std::istringstream words(line);
    std::string name;
    words >> name;
    ++listed[name];
  }
  EXPECT_EQ(listed.count("align"), 1u) << out;
  for (const auto& [name, times] : listed)
    EXPECT_EQ(times, 1) << name << " listed " << times << " times:\n" << out;
}

// Runs dpx-bench with `args` in the folder `cwd`; returns its exit status, `out` what it printed
// (both streams).
int run_in(const std::string& cwd, const std::string& args, std::string* out) {
  FILE* p = popen(("cd '" + cwd + "' && " + program() + " " + args + " 2>&1").c_str(), "r");
  if (p == nullptr) return -1;
  std::array<char, 512> chunk{};
  out->clear();
  while (std::fgets(chunk.data(), chunk.size(), p) != nullptr) *out += chunk.data();
  const int raw = pclose(p);
  return WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
}

TEST(DpxBenchCli, BadSettingsAreRefused) {
  if (access(program().c_str(), X_OK) != 0) GTEST_SKIP() << "dpx-bench not built at " << program();
  const struct {
    const char* args;
    const char* message;
  } cases[] = {
      {"epilogue --elements=-5", "--elements needs a whole number from 1"},
      {"epilogue --elements=0", "--elements needs a whole number from 1"},
      {"epilogue --elemnts=5", "unknown option '--elemnts'"},
      {"morph --width=abc", "--width needs a whole number"},
      {"morph --reps=0", "--reps needs a whole number from 1"},
      {"morph quick", "unrecognised argument 'quick'"},
      {"morph --cases=99x99", "no case's title holds '99x99'"},
      {"morph --width=0", "--width needs a whole number from 1"},
      {"align --sw-db-count=x", "--sw-db-count needs a whole number from 0"},
      {"morph --cases=", "--cases needs a value"},
      {"epilogue --json=", "--json needs a value"},
      {"epilogue --json=/nonexistent-dpx-folder/x.json", "no folder /nonexistent-dpx-folder"},
      {"nosuch", "unknown benchmark"},
  };
  for (const auto& c : cases) {
    std::string out;
    EXPECT_EQ(run_in(".", c.args, &out), 2) << c.args << "\n" << out;
    EXPECT_NE(out.find(c.message), std::string::npos) << c.args << "\n" << out;
  }
}

// A fresh empty folder under the system's temporary folder, removed at the end of the test.
class TempFolder {
 public:
  TempFolder() {
    std::string pattern = (std::filesystem::temp_directory_path() / "dpx-bench-test-XXXXXX").string();
    path_ = mkdtemp(pattern.data()) != nullptr ? pattern : "";
  }
  ~TempFolder() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(path_))
      names.push_back(e.path().filename().string());
    return names;
  }

 private:
  std::string path_;
};

// The smallest real run: the CPU epilogue rows on 1,024 elements, once.
constexpr const char* kTinyRun = "epilogue --elements=1024 --reps=1 --warmup=1";

TEST(DpxBenchCli, WritesNoJsonUnlessAsked) {
  if (access(program().c_str(), X_OK) != 0) GTEST_SKIP() << "dpx-bench not built at " << program();
  TempFolder cwd;
  ASSERT_FALSE(cwd.path().empty());
  std::string out;
  ASSERT_EQ(run_in(cwd.path(), kTinyRun, &out), 0) << out;
  EXPECT_NE(out.find("== dpx-bench epilogue =="), std::string::npos) << out;
  EXPECT_TRUE(cwd.entries().empty()) << "wrote " << cwd.entries().front();

  ASSERT_EQ(run_in(cwd.path(), std::string(kTinyRun) + " --json=report.json", &out), 0) << out;
  EXPECT_EQ(cwd.entries(), std::vector<std::string>{"report.json"});
  JsonParser* parser = json_parser_new();
  GError* error = nullptr;
  ASSERT_TRUE(json_parser_load_from_file(parser, (cwd.path() + "/report.json").c_str(), &error))
      << (error != nullptr ? error->message : "");
  JsonObject* root = json_node_get_object(json_parser_get_root(parser));
  JsonObject* first = json_array_get_object_element(json_object_get_array_member(root, "benchmarks"), 0);
  EXPECT_STREQ(json_object_get_string_member(first, "benchmark"), "epilogue");
  EXPECT_GT(json_array_get_length(json_object_get_array_member(first, "rows")), 0u);
  g_object_unref(parser);
}

TEST(DpxBenchCli, JsonIntoMissingFolderIsRefusedBeforeRunning) {
  if (access(program().c_str(), X_OK) != 0) GTEST_SKIP() << "dpx-bench not built at " << program();
  TempFolder cwd;
  ASSERT_FALSE(cwd.path().empty());
  std::string out;
  EXPECT_EQ(run_in(cwd.path(), std::string(kTinyRun) + " --json=missing/report.json", &out), 2) << out;
  EXPECT_NE(out.find("--json=missing/report.json: no folder missing"), std::string::npos) << out;
  EXPECT_EQ(out.find("== dpx-bench"), std::string::npos) << "the benchmark ran:\n" << out;
  EXPECT_TRUE(cwd.entries().empty());
}

// Parses `args` as dpx-bench's options after the subcommand.
bool parse(std::vector<std::string> args, dpx::bench::Options* o, std::string* error) {
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  return dpx::bench::parse_bench_args(static_cast<int>(argv.size()), argv.data(), 0, o, error);
}

TEST(DpxBenchArgs, SettingsAreParsedOnceIntoTypedFields) {
  dpx::bench::Options o;
  std::string error;
  ASSERT_TRUE(parse({"--reps=7", "--warmup=2", "--quick", "--width=640", "--height=360", "--cases=31x31",
                     "--elements=4096", "--sw-db=a.fa,b.fa.gz", "--sw-db-count=0", "--part=shapes",
                     "--image=photo.pgm", "--dump=frames", "--photos=pics", "--sw-queries=q.fa"},
                    &o, &error))
      << error;
  EXPECT_EQ(o.reps, 7);
  EXPECT_EQ(o.warmup, 2);
  EXPECT_TRUE(o.quick);
  EXPECT_EQ(o.width, 640);
  EXPECT_EQ(o.height, 360);
  EXPECT_EQ(o.cases, "31x31");
  EXPECT_EQ(o.elements, std::size_t{4096});
  EXPECT_EQ(o.sw_db, (std::vector<std::string>{"a.fa", "b.fa.gz"}));
  EXPECT_EQ(o.sw_db_count, std::size_t{0});  // given as 0: only the --sw-db files
  EXPECT_EQ(o.part, "shapes");
  EXPECT_EQ(o.image, "photo.pgm");
  EXPECT_EQ(o.dump, "frames");
  EXPECT_EQ(o.photos, "pics");
  EXPECT_EQ(o.sw_queries, "q.fa");
  EXPECT_TRUE(o.json_path.empty());

  dpx::bench::Options defaults;
  ASSERT_TRUE(parse({}, &defaults, &error)) << error;
  EXPECT_FALSE(defaults.width.has_value());
  EXPECT_FALSE(defaults.elements.has_value());
  EXPECT_FALSE(defaults.sw_db_count.has_value());
  EXPECT_TRUE(defaults.json_path.empty());
  EXPECT_EQ(defaults.photos, "tests/data/photos");
}

TEST(DpxBenchArgs, JsonPathIsCheckedWhenParsed) {
  TempFolder dir;
  ASSERT_FALSE(dir.path().empty());
  dpx::bench::Options o;
  std::string error;
  EXPECT_TRUE(parse({"--json=" + dir.path() + "/x.json"}, &o, &error)) << error;
  EXPECT_EQ(o.json_path, dir.path() + "/x.json");
  EXPECT_FALSE(parse({"--json=" + dir.path() + "/missing/x.json"}, &o, &error));
  EXPECT_NE(error.find("no folder " + dir.path() + "/missing"), std::string::npos) << error;
  EXPECT_FALSE(parse({"--json=" + dir.path()}, &o, &error));
  EXPECT_NE(error.find("is a folder"), std::string::npos) << error;
  EXPECT_TRUE(dir.entries().empty()) << "checking the path wrote " << dir.entries().front();
}

TEST(DpxBenchJson, AnyTextGivesValidJson) {
  // Every control character, quotes, backslashes and UTF-8 in every string; figures that are not
  // finite become null.
  std::string awkward;
  for (int c = 1; c < 0x20; ++c) awkward += static_cast<char>(c);
  awkward += "\"\\/ \x7f caf\xc3\xa9";
  dpx::bench::Report report(awkward);
  report.add(dpx::bench::Row{awkward, "dpx", 1.5, 2.25, "GB/s", awkward});
  report.add(dpx::bench::Row{"case", awkward, std::nan(""), INFINITY, awkward, ""});
  const std::string text = dpx::bench::reports_json({report});

  JsonParser* parser = json_parser_new();
  GError* error = nullptr;
  ASSERT_TRUE(json_parser_load_from_data(parser, text.c_str(), static_cast<gssize>(text.size()), &error))
      << (error != nullptr ? error->message : "") << "\n"
      << text;
  JsonObject* root = json_node_get_object(json_parser_get_root(parser));
  JsonObject* bench = json_array_get_object_element(json_object_get_array_member(root, "benchmarks"), 0);
  EXPECT_EQ(json_object_get_string_member(bench, "benchmark"), awkward);
  JsonArray* rows = json_object_get_array_member(bench, "rows");
  ASSERT_EQ(json_array_get_length(rows), 2u);
  JsonObject* r0 = json_array_get_object_element(rows, 0);
  EXPECT_EQ(json_object_get_string_member(r0, "case"), awkward);
  EXPECT_EQ(json_object_get_string_member(r0, "note"), awkward);
  EXPECT_DOUBLE_EQ(json_object_get_double_member(r0, "median_us"), 1.5);
  EXPECT_DOUBLE_EQ(json_object_get_double_member(r0, "throughput"), 2.25);
  JsonObject* r1 = json_array_get_object_element(rows, 1);
  EXPECT_EQ(json_object_get_string_member(r1, "variant"), awkward);
  EXPECT_EQ(json_object_get_string_member(r1, "unit"), awkward);
  EXPECT_TRUE(json_object_get_null_member(r1, "median_us"));
  EXPECT_TRUE(json_object_get_null_member(r1, "throughput"));
  g_object_unref(parser);
  // Nothing but printable ASCII, newlines and UTF-8 in the text itself: the controls are escaped.
  for (char c : text) EXPECT_TRUE(c == '\n' || static_cast<unsigned char>(c) >= 0x20) << static_cast<int>(c);
}

TEST(DpxBenchCudasw4, PeakRunIsRunShsCommand) {
  dpx::bench::Cudasw4Database peak;
  peak.pseudo_count = 1000000;
  peak.pseudo_length = 1024;
  EXPECT_EQ(dpx::bench::cudasw4_align_command("/opt/cs4", "/q/all.fasta", peak),
            "'/opt/cs4/align' --query '/q/all.fasta' --top 0 --verbose --uploadFull --prefetchDBFile --mat blosum62"
            " --singlePassType DPXs16 --manyPassType_small DPXs16 --manyPassType_large DPXs32"
            " --pseudodb 1000000 1024 2>&1");
  dpx::bench::Cudasw4Database built;
  built.db = "/tmp/x.fasta.cudasw4db";
  EXPECT_EQ(dpx::bench::cudasw4_align_command("/opt/cs4", "/q/all.fasta", built),
            "'/opt/cs4/align' --query '/q/all.fasta' --db '/tmp/x.fasta.cudasw4db' --top 10 --verbose --uploadFull"
            " --prefetchDBFile --mat blosum62 --singlePassType DPXs16 --manyPassType_small DPXs16"
            " --manyPassType_large DPXs32 2>&1");
}

TEST(DpxBenchCudasw4, FigureIsTheLastTotalLine) {
  double s = -1;
  EXPECT_DOUBLE_EQ(dpx::bench::cudasw4_gcups("Processing query 0 ... Done. Scan time: 0.5 s, 4000.5 GCUPS\n"
                                             "Total time: 9.25 s, 4978.75 GCUPS\n",
                                             &s),
                   4978.75);
  EXPECT_DOUBLE_EQ(s, 9.25);
  EXPECT_DOUBLE_EQ(dpx::bench::cudasw4_gcups("Total time: 1 s, 2 GCUPS\nTotal time: 3 s, 4 GCUPS\n", &s), 4);
  EXPECT_DOUBLE_EQ(s, 3);
  s = -1;
  EXPECT_EQ(dpx::bench::cudasw4_gcups("Done. Scan time: 0.5 s, 4000.5 GCUPS\n", &s), 0);  // no total
  EXPECT_EQ(dpx::bench::cudasw4_gcups("Total time: n/a\n", &s), 0);
  EXPECT_EQ(dpx::bench::cudasw4_gcups("", &s), 0);
  EXPECT_DOUBLE_EQ(s, -1);  // untouched without a figure
}

TEST(DpxBenchCudasw4, PseudoSequenceIsOneFixedDraw) {
  const std::string kLetters = "ARNDCQEGHILKMFPSTWYV";
  const std::string s1024 = dpx::bench::cudasw4_pseudo_sequence(1024);
  const std::string s256 = dpx::bench::cudasw4_pseudo_sequence(256);
  ASSERT_EQ(s1024.size(), 1024u);
  ASSERT_EQ(s256.size(), 256u);
  EXPECT_EQ(s1024.substr(0, 256), s256);  // one generator seeded 42, as CUDASW++4.0 seeds it
  EXPECT_EQ(s256, dpx::bench::cudasw4_pseudo_sequence(256));
  EXPECT_TRUE(dpx::bench::cudasw4_pseudo_sequence(0).empty());
  EXPECT_EQ(dpx::bench::cudasw4_pseudo_sequence(1).size(), 1u);
  int seen[20] = {};
  for (char c : s1024) {
    const std::size_t k = kLetters.find(c);
    ASSERT_NE(k, std::string::npos) << c;
    ++seen[k];
  }
  for (int k = 0; k < 20; ++k) EXPECT_GT(seen[k], 20) << kLetters[k];  // ~51 each when uniform
}

}  // namespace

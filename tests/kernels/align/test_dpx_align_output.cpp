// dpx-align --output: what it replaces and what it writes through. A regular file is replaced
// whole (its mode kept), a symbolic link's file is replaced and the link kept, a device or FIFO is
// written directly, a file in a folder that cannot hold a temporary file is written in place once
// the run succeeded, and a signal that ends the run removes the temporary file and says so.
#include <gtest/gtest.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "dpx_align_cli_fixture.h"
#include "test_util.h"

namespace dpx {
namespace {

constexpr int kNobody = 65534;

class DpxAlignOutput : public DpxAlignCli {
 protected:
  void SetUp() override {
    DpxAlignCli::SetUp();
    if (IsSkipped()) return;
    auto rng = test::seeded_rng();
    queries_ = write("q.fa", fasta(rng, "q", 3, 40));
    targets_ = write("t.fa", fasta(rng, "t", 5, 60));
    const Outcome r = run("sw --quiet --backend cpu " + queries_ + " " + targets_);
    ASSERT_EQ(r.status, 0) << r.err;
    table_ = r.out;
    ASSERT_GT(table_.size(), 100u);
  }

  static std::string fasta(std::mt19937_64& rng, const char* prefix, int count, std::size_t length) {
    const std::string residues = "ARNDCQEGHILKMFPSTWYV";
    std::string text;
    for (int k = 0; k < count; ++k) {
      text += ">" + std::string(prefix) + std::to_string(k) + "\n";
      for (std::size_t i = 0; i < length; ++i) text += residues[rng() % residues.size()];
      text += "\n";
    }
    return text;
  }

  // The table written to `output`.
  Outcome sw_to(const std::string& output) { return run("sw --quiet --backend cpu --output " + output + " " + queries_ + " " + targets_); }

  // Names in the test's folder (and `sub` below it) holding ".tmp.": temporary files left behind.
  std::vector<std::string> leftovers(const std::string& folder) {
    std::vector<std::string> found;
    DIR* d = opendir(folder.c_str());
    if (d == nullptr) return found;
    for (const dirent* e; (e = readdir(d)) != nullptr;)
      if (std::string(e->d_name).find(".tmp.") != std::string::npos) found.push_back(e->d_name);
    closedir(d);
    return found;
  }

  std::string queries_, targets_, table_;
};

struct stat stat_of(const std::string& path, bool follow = true) {
  struct stat st {};
  EXPECT_EQ(follow ? stat(path.c_str(), &st) : lstat(path.c_str(), &st), 0) << path;
  return st;
}

TEST_F(DpxAlignOutput, ReplacesARegularFileWholeKeepingItsMode) {
  const std::string out = write("out.tsv", "old\n");
  for (const mode_t mode : {0640, 0664, 0600}) {
    ASSERT_EQ(chmod(out.c_str(), mode), 0);
    const ino_t before = stat_of(out).st_ino;
    const Outcome r = sw_to(out);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(r.out.empty());
    EXPECT_EQ(file_text(out), table_);
    const struct stat st = stat_of(out);
    EXPECT_EQ(st.st_mode & 07777, mode) << std::oct << mode;
    EXPECT_NE(st.st_ino, before) << "replaced by rename, not rewritten in place";
    EXPECT_TRUE(leftovers(dir_).empty());
  }
  // a new file gets the usual permissions
  const mode_t mask = umask(0);
  umask(mask);
  const std::string fresh = dir_ + "/fresh.tsv";
  ASSERT_EQ(sw_to(fresh).status, 0);
  EXPECT_EQ(stat_of(fresh).st_mode & 0777, 0666 & ~mask);
  EXPECT_EQ(file_text(fresh), table_);
  // a failed run leaves the old file as it was
  write("out.tsv", "old\n");
  const Outcome bad = run("sw --quiet --backend cpu --output " + out + " " + queries_ + " " + write("bad.fa", ">x\nMK1\n"));
  EXPECT_EQ(bad.status, 2);
  EXPECT_EQ(file_text(out), "old\n");
}

TEST_F(DpxAlignOutput, ReplacesTheFileALinkNamesAndKeepsTheLink) {
  ASSERT_EQ(mkdir((dir_ + "/real").c_str(), 0755), 0);
  const std::string target = write("real/out.tsv", "old\n");
  ASSERT_EQ(chmod(target.c_str(), 0640), 0);
  const std::string absolute = dir_ + "/abs.tsv", relative = dir_ + "/rel.tsv", chain = dir_ + "/chain.tsv";
  ASSERT_EQ(symlink(target.c_str(), absolute.c_str()), 0);
  ASSERT_EQ(symlink("real/out.tsv", relative.c_str()), 0);
  ASSERT_EQ(symlink("rel.tsv", chain.c_str()), 0);
  for (const std::string& link : {absolute, relative, chain}) {
    write("real/out.tsv", "old\n");
    const Outcome r = sw_to(link);
    ASSERT_EQ(r.status, 0) << link << "\n" << r.err;
    EXPECT_TRUE(S_ISLNK(stat_of(link, false).st_mode)) << link;
    EXPECT_EQ(file_text(target), table_) << link;
    EXPECT_EQ(stat_of(target).st_mode & 07777, 0640u) << link;
    EXPECT_TRUE(leftovers(dir_ + "/real").empty());
  }
  // a link to a file not there yet: the file is made, the link kept
  const std::string dangling = dir_ + "/dangling.tsv";
  ASSERT_EQ(symlink("real/new.tsv", dangling.c_str()), 0);
  ASSERT_EQ(sw_to(dangling).status, 0);
  EXPECT_TRUE(S_ISLNK(stat_of(dangling, false).st_mode));
  EXPECT_EQ(file_text(dir_ + "/real/new.tsv"), table_);
}

TEST_F(DpxAlignOutput, DevicesAndFifosAreWrittenDirectly) {
  const Outcome null = sw_to("/dev/null");
  EXPECT_EQ(null.status, 0) << null.err;
  EXPECT_TRUE(S_ISCHR(stat_of("/dev/null").st_mode));
  EXPECT_TRUE(leftovers("/dev").empty());

  const Outcome full = sw_to("/dev/full");
  EXPECT_NE(full.status, 0);
  EXPECT_NE(full.err.find("cannot write /dev/full: No space left on device"), std::string::npos) << full.err;
  EXPECT_TRUE(S_ISCHR(stat_of("/dev/full").st_mode));
  const Outcome full_search = run("search --quiet --backend cpu --top 0 --output /dev/full " + queries_ + " " + targets_);
  EXPECT_NE(full_search.status, 0);
  EXPECT_NE(full_search.err.find("cannot write /dev/full: No space left on device"), std::string::npos) << full_search.err;

  const Outcome stdout_device = sw_to("/dev/stdout");
  EXPECT_EQ(stdout_device.status, 0) << stdout_device.err;
  EXPECT_EQ(stdout_device.out, table_);

  const std::string fifo = dir_ + "/fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0644), 0);
  std::string read_back;
  std::thread reader([&] { read_back = file_text(fifo); });
  const Outcome piped = sw_to(fifo);
  reader.join();
  EXPECT_EQ(piped.status, 0) << piped.err;
  EXPECT_EQ(read_back, table_);
  EXPECT_TRUE(S_ISFIFO(stat_of(fifo, false).st_mode));
  EXPECT_TRUE(leftovers(dir_).empty());

  const Outcome folder = sw_to(dir_);
  EXPECT_EQ(folder.status, 2);
  EXPECT_NE(folder.err.find("cannot write " + dir_ + ": Is a directory"), std::string::npos) << folder.err;
}

// A writable file in a folder the user cannot write (run as nobody when the test runs as root,
// whom permissions do not stop): written in place once the run succeeded, the inode kept.
TEST_F(DpxAlignOutput, WritesInPlaceWhereNoTemporaryFileCanBeMade) {
  const bool root = geteuid() == 0;
  const int uid = root ? kNobody : -1;
  const std::string folder = dir_ + "/locked";
  ASSERT_EQ(mkdir(folder.c_str(), 0755), 0);
  ASSERT_EQ(chmod(dir_.c_str(), 0755), 0);
  const std::string out = write("locked/out.tsv", "old\n");
  ASSERT_EQ(chmod(out.c_str(), 0666), 0);
  ASSERT_EQ(chmod(queries_.c_str(), 0644) | chmod(targets_.c_str(), 0644), 0);
  if (!root) {
    ASSERT_EQ(chmod(folder.c_str(), 0555), 0);
  }
  const ino_t before = stat_of(out).st_ino;
  const std::string log = dir_ + "/log";
  const int raw = wait_for(start({"sw", "--quiet", "--backend", "cpu", "--output", out, queries_, targets_}, "/dev/null", log, uid));
  ASSERT_TRUE(WIFEXITED(raw));
  EXPECT_EQ(WEXITSTATUS(raw), 0) << file_text(log);
  EXPECT_EQ(file_text(out), table_);
  EXPECT_EQ(stat_of(out).st_ino, before);
  EXPECT_EQ(stat_of(out).st_mode & 07777, 0666u);
  // a new file there cannot be made at all
  const std::string fresh = folder + "/new.tsv";
  const int refused = wait_for(start({"sw", "--quiet", "--backend", "cpu", "--output", fresh, queries_, targets_}, "/dev/null", log, uid));
  ASSERT_TRUE(WIFEXITED(refused));
  EXPECT_EQ(WEXITSTATUS(refused), 2);
  EXPECT_NE(file_text(log).find("cannot write " + fresh + ": Permission denied"), std::string::npos) << file_text(log);
  chmod(folder.c_str(), 0755);
}

// A run long enough to be stopped: 40,000 x 200 pairs on one CPU thread.
class DpxAlignStopped : public DpxAlignOutput {
 protected:
  void SetUp() override {
    DpxAlignOutput::SetUp();
    if (IsSkipped()) return;
    auto rng = test::seeded_rng();
    big_queries_ = write("bq.fa", fasta(rng, "q", 40000, 50));
    big_targets_ = write("bt.fa", fasta(rng, "t", 200, 50));
  }

  // Starts `command` on the big inputs into `out`, waits for its temporary file, sends `signals`
  // 20 ms apart, and returns the wait status.
  int stop(const std::string& command, const std::string& out, const std::vector<int>& signals) {
    const pid_t pid = start({command, "--backend", "cpu", "--threads", "1", "--output", out, big_queries_, big_targets_},
                            "/dev/null", dir_ + "/err");
    for (int tries = 0; tries < 3000 && leftovers(dir_).empty(); ++tries) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    EXPECT_FALSE(leftovers(dir_).empty()) << "no temporary file appeared";
    for (int s : signals) {
      kill(pid, s);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return wait_for(pid);
  }

  std::string big_queries_, big_targets_;
};

TEST_F(DpxAlignStopped, EndingSignalsRemoveTheTemporaryFile) {
  const struct {
    const char* command;
    std::vector<int> signals;
    const char* name;
  } cases[] = {
      {"sw", {SIGTERM}, "SIGTERM"},      {"sw", {SIGHUP}, "SIGHUP"},        {"sw", {SIGINT}, "SIGINT"},
      {"search", {SIGTERM}, "SIGTERM"},  {"search", {SIGHUP}, "SIGHUP"},
  };
  const std::string out = dir_ + "/out.tsv";
  for (const auto& c : cases) {
    write("out.tsv", "old\n");
    const int raw = stop(c.command, out, c.signals);
    const std::string said = file_text(dir_ + "/err");
    ASSERT_TRUE(WIFSIGNALED(raw)) << c.command << " " << c.name << "\n" << said;
    EXPECT_EQ(WTERMSIG(raw), c.signals.back()) << c.command << " " << c.name;
    EXPECT_NE(said.find(std::string("dpx-align: stopped by ") + c.name + "; removed the unfinished " + out + ".tmp."),
              std::string::npos) << said;
    EXPECT_NE(said.find(out + " is as it was"), std::string::npos) << said;
    EXPECT_TRUE(leftovers(dir_).empty()) << c.command << " " << c.name;
    EXPECT_EQ(file_text(out), "old\n") << c.command << " " << c.name;
  }
}

// The first Ctrl-C stops a search cleanly; a second one before it has stopped ends it at once. Either
// way the temporary file goes and the old output stays.
TEST_F(DpxAlignStopped, SecondInterruptOfASearchRemovesTheTemporaryFile) {
  const std::string out = write("out.tsv", "old\n");
  const int raw = stop("search", out, {SIGINT, SIGINT});
  const std::string said = file_text(dir_ + "/err");
  if (WIFSIGNALED(raw)) {
    // Ended by the second signal: during the run (the temporary file removed on the way out), or
    // after the first had already stopped it cleanly (its message said, the file removed), on a
    // machine slow enough that the clean stop won the race.
    EXPECT_EQ(WTERMSIG(raw), SIGINT);
    const bool during = said.find("dpx-align: stopped by SIGINT; removed the unfinished " + out + ".tmp.") !=
                        std::string::npos;
    const bool after_clean_stop = said.find("dpx-align: interrupted; the rows written are whole") != std::string::npos;
    EXPECT_TRUE(during || after_clean_stop) << said;
  } else {
    ASSERT_TRUE(WIFEXITED(raw));
    EXPECT_EQ(WEXITSTATUS(raw), 130) << said;
    EXPECT_NE(said.find("interrupted"), std::string::npos) << said;
  }
  EXPECT_TRUE(leftovers(dir_).empty());
  EXPECT_EQ(file_text(out), "old\n");
}

}  // namespace
}  // namespace dpx

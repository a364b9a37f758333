// The fixture of the dpx-align end-to-end tests: the built program (found next to the test
// binary's build folder), run in a fresh temporary folder with its exit status, output and errors.
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace dpx {

inline std::string program() {
  std::array<char, 4096> buf{};
  const ssize_t n = readlink("/proc/self/exe", buf.data(), buf.size() - 1);
  std::string self = n > 0 ? std::string(buf.data(), static_cast<std::size_t>(n)) : "";
  self = self.substr(0, self.rfind('/'));  // build/tests/kernels
  return self + "/../../tools/dpx-align";
}

inline std::string file_text(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Proteins of random lengths (lower case here and there, lines of 60), every fourth a copy of an
// earlier one so that equal scores are common; `unknown` letters (J) sprinkled in when asked.
inline std::string protein_fasta(std::mt19937_64& rng, std::size_t count, bool unknown) {
  const std::string residues = "ARNDCQEGHILKMFPSTWYVarndc";
  std::vector<std::string> seqs;
  std::string fasta;
  for (std::size_t i = 0; i < count; ++i) {
    std::string s = i % 4 == 3 ? seqs[rng() % seqs.size()] : std::string(20 + rng() % 150, 'A');
    if (i % 4 != 3)
      for (char& c : s) c = residues[rng() % residues.size()];
    if (unknown && i % 5 == 0) s[rng() % s.size()] = 'J';
    seqs.push_back(s);
    fasta += ">p" + std::to_string(i) + " protein " + std::to_string(i) + "\n";
    for (std::size_t at = 0; at < s.size(); at += 60) fasta += s.substr(at, 60) + "\n";
  }
  return fasta;
}

struct Outcome {
  int status;
  std::string out, err;
};

class DpxAlignCli : public ::testing::Test {
 protected:
  void SetUp() override {
    if (access(program().c_str(), X_OK) != 0) GTEST_SKIP() << "dpx-align not built at " << program();
    char tmpl[] = "/tmp/dpx-align-test-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override {
    if (!dir_.empty()) std::system(("rm -rf '" + dir_ + "'").c_str());
  }

  std::string write(const std::string& name, const std::string& bytes) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }

  Outcome run(const std::string& args) {
    const std::string err = dir_ + "/stderr";
    FILE* p = popen((program() + " " + args + " 2>" + err).c_str(), "r");
    Outcome r{-1, "", ""};
    if (p == nullptr) return r;
    std::array<char, 4096> buf;
    std::size_t got;
    while ((got = std::fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), got);
    const int raw = pclose(p);
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    r.err = file_text(err);
    return r;
  }

  // Starts dpx-align with `args` (no shell between), its standard output and error going to
  // `out_path` and `err_path`; as user `uid` when it is not -1. Returns the process id.
  pid_t start(const std::vector<std::string>& args, const std::string& out_path, const std::string& err_path, int uid = -1) {
    const pid_t pid = fork();
    if (pid != 0) return pid;
    const int out = open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out < 0 || err < 0 || dup2(out, STDOUT_FILENO) < 0 || dup2(err, STDERR_FILENO) < 0) _exit(126);
    if (uid != -1 && (setgid(uid) != 0 || setuid(uid) != 0)) _exit(126);
    std::vector<char*> argv{const_cast<char*>("dpx-align")};
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(program().c_str(), argv.data());
    _exit(127);
  }

  // The wait status of a process from start().
  static int wait_for(pid_t pid) {
    int raw = 0;
    return waitpid(pid, &raw, 0) == pid ? raw : -1;
  }

  std::string dir_;
};

}  // namespace dpx

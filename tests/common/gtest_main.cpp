// GoogleTest main shared by every test binary: runs the suite, then prints one plain summary
// line ("NAME: N passed, N failed, N skipped") that scripts/test.sh adds up.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  const int rc = RUN_ALL_TESTS();
  const ::testing::UnitTest& unit = *::testing::UnitTest::GetInstance();
  std::string name = argc > 0 ? argv[0] : "tests";
  name = name.substr(name.find_last_of('/') + 1);
  std::printf("%s: %d passed, %d failed, %d skipped\n", name.c_str(), unit.successful_test_count(),
              unit.failed_test_count(), unit.skipped_test_count());
  return rc;
}

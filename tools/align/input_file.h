// Whole-file reads, plain or gzip (zlib reads both), with messages that name the file.
#pragma once

#include <string>

namespace dpx {
namespace cli {

// Reads `path` ("-" = standard input) into `text`; false with `error` set when it cannot.
bool read_input_file(const std::string& path, std::string* text, std::string* error);

}  // namespace cli
}  // namespace dpx

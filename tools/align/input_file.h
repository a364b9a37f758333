// Reads of input files, plain or gzip (zlib reads both), with messages that name the file.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace dpx {
namespace cli {

// Called with each line and its 0-based index; false stops the read (with the error set by the
// callee). A line ends at "\n", "\r\n" or a lone "\r" (old Mac files), none of them passed on.
using LineFn = std::function<bool(std::string_view line, std::size_t index)>;

// Streams `path` ("-" = standard input) a line at a time, so the whole text is never held. `size`,
// when given, is set before the first line to the file's size when it is plain (a bound on its
// letters), else 0.
bool read_input_lines(const std::string& path, const LineFn& line, std::string* error, std::size_t* size = nullptr);

// Splits `text` into lines as read_input_lines splits a file, handed over `chunk` bytes at a time
// as reads would cut it (tests and the fuzzers; 0 is taken as 1).
bool split_lines(std::string_view text, std::size_t chunk, const LineFn& line);

// Reads `path` into `text`, lines joined by '\n'; false with `error` set when it cannot.
bool read_input_file(const std::string& path, std::string* text, std::string* error);

}  // namespace cli
}  // namespace dpx

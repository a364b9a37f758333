// The JSON-lines file of dpxmotionest (`location`) over one run of the element, start to stop.
// The path is checked when the run starts (created when missing; an existing file keeps its bytes)
// and truncated when its first line is due, so a run that never gets that far — a failed start, a
// state change without a stream — leaves the file of an earlier run as it was. A run that processed
// frames without writing a line leaves its file empty. `location` may change while playing: each
// line goes to the path of its frame's settings; a path is truncated the first time in the run a
// line goes to it and appended to when the run comes back to it, so no line of the run is lost.
// Every line is flushed as it is written. Streaming thread and state changes only.
#pragma once

#include <gst/gst.h>

#include <cstdio>
#include <functional>
#include <set>
#include <string>

namespace gstdpx {

class MotionFile {
 public:
  MotionFile() = default;
  ~MotionFile() { close(); }
  MotionFile(const MotionFile&) = delete;
  MotionFile& operator=(const MotionFile&) = delete;

  // Starts a run writing to `path` ("" = no file): false, with errno set, when it cannot be
  // written.
  bool start(const std::string& path);
  enum class Written { kOk, kCannotOpen, kCannotWrite };  // errno is set with the last two
  // Appends the line `format` returns (with its newline) to `path`. With "" (no file) `format`
  // is not called: a 4K frame's vectors take longer to format than to search on the GPU.
  Written write(const std::string& path, const std::function<std::string()>& format);
  // Ends the run; `streamed`: frames were processed (then a start path without lines is emptied).
  void stop(bool streamed);

 private:
  void close();

  std::FILE* file_ = nullptr;
  std::string open_path_;          // the path of file_
  std::string start_path_;         // the path when the run started
  std::set<std::string> written_;  // paths truncated in this run
};

// MotionFile::write, with an element error on `element` naming the file it could not open or write.
bool write_line_or_post_error(GstElement* element, MotionFile& file, const std::string& path,
                              const std::function<std::string()>& format);

}  // namespace gstdpx

// `--json FILE` and `--json -` for every command that writes JSON (run, list, inspect, compare,
// doctor, resources). A file is written atomically (harness/util/atomic_file). "-" means stdout:
// the JSON is then the only thing on stdout, and the command's human-readable text goes to stderr
// instead (TextToStderr), so that `archbench inspect lib.so --json - | jq` works and a terminal
// still shows the report.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>

namespace archbench::cli {

[[nodiscard]] inline bool is_stdout(std::string_view path) { return path == "-"; }

// Writes `content` to stdout (path "-") or atomically to the file; throws std::runtime_error
// naming the path when a file cannot be written.
void write_output(const std::string& path, const std::string& content);

// write_output, and when it fails, "archbench COMMAND: <why>" on stderr (wrapped); false then (the
// command exits kInternal: nothing the user gave was wrong).
[[nodiscard]] bool write_or_say(std::string_view command, const std::string& path, const std::string& content);

// While it lives and `active` is true, std::cout writes to stderr; write_output("-", ...) still
// reaches the real stdout.
class TextToStderr {
 public:
  explicit TextToStderr(bool active);
  ~TextToStderr();
  TextToStderr(const TextToStderr&) = delete;
  TextToStderr& operator=(const TextToStderr&) = delete;

 private:
  std::streambuf* saved_ = nullptr;
};

}  // namespace archbench::cli

#include "tools/archbench/json_output.hpp"

#include <cstdio>
#include <iostream>
#include <stdexcept>
#include <string>

#include "harness/util/atomic_file.hpp"
#include "harness/util/text_wrap.hpp"

namespace archbench::cli {

bool write_or_say(std::string_view command, const std::string& path, const std::string& content) {
  try {
    write_output(path, content);
    return true;
  } catch (const std::exception& e) {
    std::cerr << text::wrap_text("archbench " + std::string(command) + ": " + e.what() + "\n");
    return false;
  }
}

void write_output(const std::string& path, const std::string& content) {
  if (!is_stdout(path)) {
    write_file_atomically(path, content);
    return;
  }
  std::cout.flush();
  std::cerr.flush();
  // The C stream: std::cout may be pointing at stderr (TextToStderr).
  if (std::fwrite(content.data(), 1, content.size(), stdout) != content.size() || std::fflush(stdout) != 0) {
    throw std::runtime_error("cannot write the JSON to stdout");
  }
}

TextToStderr::TextToStderr(bool active) {
  if (active) saved_ = std::cout.rdbuf(std::cerr.rdbuf());
}

TextToStderr::~TextToStderr() {
  if (saved_ != nullptr) {
    std::cout.flush();
    std::cout.rdbuf(saved_);
  }
}

}  // namespace archbench::cli

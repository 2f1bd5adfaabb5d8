// What the progress tests feed a progress display and read back from it: a passing operator as a
// worker reports it, and everything the display wrote to a temporary file.
#pragma once

#include <cstdio>
#include <string>

#include "harness/result/result.hpp"

namespace archbench::cli {

// Loaded from SASS, correct to 3.2e-7: the line reads "<id> sass sm_90, ok 3.2e-07".
inline OperatorResult ok_result(const std::string& id) {
  OperatorResult r;
  r.id = id;
  r.image.status = ImageOutcome::Sass;
  r.image.label = "sass sm_90";
  CorrectnessResult c;
  c.passed = c.bench_shape_finite = true;
  c.rel_error = 3.2e-7;
  r.correctness = c;
  return r;
}

// The whole content of a std::tmpfile() the display wrote to; closes it.
inline std::string read_and_close(std::FILE* f) {
  std::rewind(f);
  std::string out;
  for (int c = std::fgetc(f); c != EOF; c = std::fgetc(f)) out += static_cast<char>(c);
  std::fclose(f);
  return out;
}

}  // namespace archbench::cli

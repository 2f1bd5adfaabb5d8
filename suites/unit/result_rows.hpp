// Operator results as the report, doctor and JSON tests build them by hand: the identity fields
// taken from an id, and a check that passed.
#pragma once

#include <algorithm>
#include <string>

#include "harness/result/result.hpp"

namespace archbench::testing_support {

// Sets r's id and the family, name, dtype and shape it is made of ("family/name/dtype/shape").
inline void set_identity(OperatorResult& r, const std::string& id) {
  r.id = id;
  std::string dtype;
  std::string* parts[] = {&r.family, &r.name, &dtype, &r.shape};
  size_t begin = 0;
  for (std::string* part : parts) {
    const size_t end = std::min(id.find('/', begin), id.size());
    *part = id.substr(begin, end - begin);
    begin = end + 1;
  }
  r.dtype = parse_dtype(dtype).value();  // throws on an id whose dtype archbench does not know
}

// A result named by `id` and implemented by `impl`; nothing probed, checked or timed yet.
inline OperatorResult named_result(const std::string& id, Impl impl = Impl::Own) {
  OperatorResult r;
  set_identity(r, id);
  r.impl = impl;
  return r;
}

// A check that passed with relative error `rel_error`, inside the f16/bf16 tolerance of 2e-2.
inline CorrectnessResult passed_check(double rel_error) {
  CorrectnessResult c;
  c.passed = true;
  c.bench_shape_finite = true;
  c.rel_error = rel_error;
  c.tolerance = 2e-2;
  return c;
}

}  // namespace archbench::testing_support

#include "harness/ops/operator.hpp"

namespace archbench {

std::string_view impl_name(Impl i) {
  switch (i) {
    case Impl::Own: return "own";
    case Impl::CuBLAS: return "cublas";
    case Impl::CuDNN: return "cudnn";
  }
  return "?";
}

std::string Operator::id() const {
  return spec_.family + "/" + spec_.name + "/" + std::string(dtype_name(spec_.dtype)) + "/" + spec_.shape;
}

}  // namespace archbench

// The HTML page of `archbench framework --html`: per op the backend that ran against the fastest,
// one bar per backend (GPU time), the findings, and the denoiser steps with the fixes measured.
// Self-contained like every archbench page (html_page.hpp).
#pragma once

#include <string>
#include <vector>

#include "harness/framework/probe_answer.hpp"

namespace archbench::html {

// `verdicts[i]` judges `answer.ops[i]`.
[[nodiscard]] std::string framework_page(const framework::ProbeAnswer& answer,
                                         const std::vector<framework::OpVerdict>& verdicts);

}  // namespace archbench::html

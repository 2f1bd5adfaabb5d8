// `archbench arch-list LIST`: what a TORCH_CUDA_ARCH_LIST or CMAKE_CUDA_ARCHITECTURES value builds, with
// the one grammar the build uses (harness/arch/arch_list): each entry's images, the devices served
// natively and through PTX JIT, and the known traps (docs/arch-lists-and-verdicts.md, "Checking a list").
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <regex>
#include <set>

#include "harness/arch/arch_list.hpp"
#include "harness/arch/compat.hpp"
#include "harness/arch/products.hpp"
#include "harness/util/text_wrap.hpp"
#include "tools/archbench/cli_format.hpp"
#include "tools/archbench/commands.hpp"
#include "tools/archbench/exit_codes.hpp"

namespace archbench::cli {
namespace {

struct ArchListOptions {
  std::string list;  // a TORCH_CUDA_ARCH_LIST or CMAKE_CUDA_ARCHITECTURES value
  std::string nvcc;  // the toolkit whose targets it may name (default: nvcc on PATH, then /usr/local/cuda)
};

using namespace archbench::arch;

std::string output_of(const std::string& command, int& status) {
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(::popen(command.c_str(), "r"), ::pclose);
  if (!pipe) {
    status = -1;
    return {};
  }
  std::string out;
  std::array<char, 4096> buf{};
  for (size_t n; (n = std::fread(buf.data(), 1, buf.size(), pipe.get())) > 0;) out.append(buf.data(), n);
  status = ::pclose(pipe.release());
  return out;
}

std::optional<Toolkit> ask_nvcc(const std::string& nvcc, std::string& error) {
  for (const std::string& candidate : nvcc.empty() ? std::vector<std::string>{"nvcc", "/usr/local/cuda/bin/nvcc"}
                                                   : std::vector<std::string>{nvcc}) {
    int s1 = 0, s2 = 0;
    const std::string version = output_of("'" + candidate + "' --version 2>/dev/null", s1);
    const std::string codes = output_of("'" + candidate + "' --list-gpu-code 2>/dev/null", s2);
    if (s1 != 0 || s2 != 0) continue;
    try {
      return Toolkit::from_nvcc_output(version, codes);
    } catch (const std::exception& e) {
      error = e.what();
    }
  }
  if (error.empty()) error = "no nvcc answered (give one with --nvcc PATH): the targets a list may name depend on it";
  return std::nullopt;
}

// "sm_90a" -> "9.0a", "compute_90" -> "9.0+PTX": the spellings people bring from nvcc flags.
std::optional<std::string> did_you_mean(const std::string& text) {
  static const std::regex nvcc_name(R"((sm|compute)_(\d+)(\d)([af]?))");
  if (!std::regex_search(text, nvcc_name)) return std::nullopt;
  std::string out;
  for (std::sregex_iterator it(text.begin(), text.end(), nvcc_name), end; it != end; ++it) {
    const auto& m = *it;
    out += (out.empty() ? "" : ";") + m[2].str() + "." + m[3].str() + m[4].str() + (m[1] == "compute" ? "+PTX" : "");
  }
  return out;
}

std::string entry_images(const ArchList& l) {
  std::vector<std::string> parts;
  for (const auto& t : l.targets) {
    std::string s = (t.kind == ImageKind::Sass ? "SASS " : "PTX ") + t.name();
    if (t.suffix == Suffix::ArchSpecific) s += fmt::format(" (arch-specific: {} only)", t.cc().str());
    if (t.suffix == Suffix::FamilySpecific) s += fmt::format(" (family-specific: {}.x of minor >= {})", t.cc().major, t.cc().minor);
    parts.push_back(std::move(s));
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

int arch_list_command(const ArchListOptions& o) {
  std::string error;
  const auto toolkit = ask_nvcc(o.nvcc, error);
  if (!toolkit) {
    std::cerr << "archbench arch-list: " << error << "\n";
    return kUsage;
  }
  ArchList whole;
  try {
    whole = parse_arch_list(o.list, *toolkit);
  } catch (const ArchListError& e) {
    std::cerr << text::wrap_text(std::string("archbench arch-list: ") + e.what() + "\n");
    if (const auto fixed = did_you_mean(o.list)) {
      std::cerr << text::wrap(fmt::format("did you mean \"{}\"? (TORCH_CUDA_ARCH_LIST names compute capabilities: sm_90 "
                                          "is 9.0; compute_90 is PTX, written 9.0+PTX)", *fixed),
                              text::kColumns, "  ", "    ");
    }
    return kUsage;
  }
  const bool cmake = whole.grammar == Grammar::CMake;
  std::cout << text::wrap_text(fmt::format("{} \"{}\" (nvcc {})\n", cmake ? "CMAKE_CUDA_ARCHITECTURES" : "TORCH_CUDA_ARCH_LIST",
                                           o.list, toolkit->version.str()));
  // Each entry alone, by the same grammar.
  for (size_t at = 0; at <= o.list.size();) {
    size_t end = o.list.find_first_of("; ", at);
    if (end == std::string::npos) end = o.list.size();
    const std::string entry = o.list.substr(at, end - at);
    at = end + 1;
    if (entry.empty()) continue;
    try {
      std::cout << text::wrap(fmt::format("{:<12} {}", entry, entry_images(parse_arch_list(entry, *toolkit))), text::kColumns,
                              "  ", std::string(15, ' '));
    } catch (const ArchListError&) {
      // A word of a multi-word name ("Ampere" alone is fine; the whole list parsed above).
    }
  }
  auto names = [](const std::vector<CodeTarget>& ts) {
    std::vector<std::string> out;
    for (const auto& t : ts) out.push_back(t.name());
    return out.empty() ? std::string("none") : fmt::format("{}", fmt::join(out, " "));
  };
  std::cout << fmt::format("resolved: SASS {} | PTX {}\n", names(whole.sass()), names(whole.ptx()));

  // The devices it serves, by the compatibility rules (driver not judged: PTX ISA needs the driver's CUDA).
  std::map<ImageOutcome, std::vector<std::string>> by_status;
  std::set<int> ccs;
  for (const auto& p : products()) ccs.insert(p.cc.number());
  for (int cc_number : ccs) {
    const ComputeCapability cc = ComputeCapability::from_number(cc_number);
    const Verdict v = predict(ImageSet{whole.targets}, DeviceFacts{cc, {}});
    const auto products_of = products_for(cc);
    by_status[v.status].push_back(products_of.empty() ? cc.str() : fmt::format("{} ({})", cc.str(), products_of.front()));
  }
  auto line = [&](ImageOutcome s, const char* title) {
    if (by_status[s].empty()) return;
    std::cout << text::wrap(fmt::format("{}: {}", title, fmt::join(by_status[s], ", ")), text::kColumns, "", "    ");
  };
  line(ImageOutcome::Sass, "native (SASS)");
  line(ImageOutcome::PtxJit, "through PTX JIT (slow first start)");
  line(ImageOutcome::Missing, "no image");

  // The known traps.
  std::vector<std::string> warnings;
  std::set<int> plain_sass;
  int newest_sass = 0;
  for (const auto& t : whole.sass()) {
    if (t.suffix == Suffix::None) plain_sass.insert(t.arch);
    newest_sass = std::max(newest_sass, t.arch);
  }
  for (const auto& t : whole.sass()) {
    if (t.suffix != Suffix::None && !plain_sass.contains(t.arch)) {
      warnings.push_back(fmt::format("{} alone is {}-specific: it drops plain sm_{} (and PTX), so no other device gets "
                                     "that code; add {} for code without arch-specific paths (vllm#56548)",
                                     t.name(), t.suffix == Suffix::ArchSpecific ? "arch" : "family", t.arch,
                                     ComputeCapability::from_number(t.arch).str()));
    }
  }
  if (whole.ptx().empty()) {
    warnings.push_back(fmt::format("no PTX: a GPU newer than the newest SASS (sm_{}) has no image; end the list with "
                                   "+PTX (TORCH_CUDA_ARCH_LIST) or a -virtual/plain entry (CMake)", newest_sass));
  }
  for (const auto& t : whole.ptx()) {
    if (t.arch >= 90 && t.suffix == Suffix::None) {
      warnings.push_back(fmt::format("PTX compute_{} is not compute_{}a/{}f: code gated on arch- or family-specific "
                                     "features (wgmma, tcgen05) is not built by it (vllm#41738)",
                                     t.arch, t.arch, t.arch));
    }
  }
  for (const auto& w : warnings) std::cout << text::wrap("warning: " + w, text::kColumns, "", "  ");
  return kOk;
}

}  // namespace

void add_arch_list_command(CLI::App& app, Commands& commands) {
  auto [cmd, o] = add_command(app, commands, "arch-list",
      "what a TORCH_CUDA_ARCH_LIST / CMAKE_CUDA_ARCHITECTURES value builds, which GPUs it serves, its traps", arch_list_command);
  cmd->add_option("list", o->list, "the value, e.g. \"8.0;9.0a;12.0+PTX\" or \"80-real;90\"")->required();
  cmd->add_option("--nvcc", o->nvcc, "the nvcc whose targets the list may name (default: PATH, /usr/local/cuda)");
}

}  // namespace archbench::cli

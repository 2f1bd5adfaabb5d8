// archbench inspect: the device code in any binary, per target and per kernel, and which
// devices could run it, without a GPU (harness/binary reads, harness/arch judges).
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <vector>

#include "harness/arch/compat.hpp"
#include "harness/binary/binary_file.hpp"
#include "harness/binary/device_coverage.hpp"
#include "harness/manifest/build_manifest.hpp"
#include "harness/stack/judgement.hpp"
#include "harness/ops/id_filter.hpp"
#include "harness/util/text_wrap.hpp"
#include "harness/util/atomic_file.hpp"
#include "tools/archbench/cli_format.hpp"
#include "tools/archbench/commands.hpp"
#include "tools/archbench/shared_options.hpp"
#include "tools/archbench/exit_codes.hpp"
#include "tools/archbench/fleet.hpp"
#include "tools/archbench/json_output.hpp"
#include "tools/archbench/selection.hpp"

namespace archbench::cli {
namespace {

struct InspectOptions {
  std::vector<std::string> files;
  bool kernels = false;
  std::string filter = "*";
  std::string json_path;
  std::vector<std::string> devices;
  std::string driver;
  std::string fleet_path;
};

using nlohmann::json;

std::string grouped(size_t n) {  // 3141 -> "3,141"
  std::string s = std::to_string(n);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<size_t>(i), ",");
  return s;
}

// A target as cuobjdump would count it, plus the PTX ISA for PTX.
std::string entry_label(const binary::FatbinEntry& e) {
  std::string s = e.target.name();
  if (e.target.kind == arch::ImageKind::Ptx && e.target.ptx_isa.known()) s += " (ISA " + e.target.ptx_isa.str() + ")";
  return s;
}

// Ordered by arch number, then suffix, so sm_75 comes before sm_100.
struct ByArch {
  bool operator()(const std::string& a, const std::string& b) const {
    auto key = [](const std::string& s) {
      const auto digits = s.find_first_of("0123456789");
      return std::make_tuple(s.substr(0, digits), digits == std::string::npos ? 0 : std::stoi(s.substr(digits)), s);
    };
    return key(a) < key(b);
  }
};
using TargetCounts = std::map<std::string, size_t, ByArch>;
// "sass sm_86", "ptx-jit from compute_80": by kind, then by the target's arch.
struct ByArchLabel {
  bool operator()(const std::string& a, const std::string& b) const {
    auto split = [](const std::string& s) {
      const auto sp = s.rfind(' ');
      return std::make_pair(s.substr(0, sp == std::string::npos ? 0 : sp), sp == std::string::npos ? s : s.substr(sp + 1));
    };
    const auto [ka, ta] = split(a);
    const auto [kb, tb] = split(b);
    if (ka != kb) return ka < kb;
    return ByArch{}(ta, tb);
  }
};

// "RTX 4090 (8.9, Ada), driver CUDA 13.0"; a fleet device's label first ("runner-a100: A100 (8.0, Ampere)").
std::string device_title(const arch::DeviceSpec& d) {
  std::string t = arch::describe_device(d);
  if (d.label != d.given) t = d.label + ": " + t;
  t += ", driver " + (d.driver.known() ? "CUDA " + d.driver.str() : std::string("unknown (PTX ISA not judged)"));
  return t;
}

// One line per device: the counts, then what they mean for a binary of this kind.
std::string device_summary(const arch::DeviceSpec& d, const binary::CoverageTally& t, binary::BinaryKind kind,
                           ImageOutcome verdict) {
  const size_t sass = t.count(ImageOutcome::Sass), jit = t.count(ImageOutcome::PtxJit), bad = t.units - t.loading();
  std::string s = fmt::format("  {}: {} of {} kernels have SASS, {} run only through PTX JIT", d.cc.str(), grouped(sass),
                              grouped(t.units), grouped(jit));
  if (t.count(ImageOutcome::NeedsNewerDriver) > 0) s += fmt::format(", {} have PTX too new for the driver", grouped(t.count(ImageOutcome::NeedsNewerDriver)));
  if (kind == binary::BinaryKind::Dispatching) {
    if (binary::runs(verdict)) {
      return s + fmt::format(" -> served: a library that dispatches per architecture{}\n",
                             bad == 0 ? std::string() : fmt::format("; its other {} kernels are for other GPUs", grouped(bad)));
    }
    return s + fmt::format(" -> {}: the library has no code for this device\n", outcome_name(verdict));
  }
  switch (verdict) {
    case ImageOutcome::Sass:
    case ImageOutcome::PtxJit:
      return s + (t.arch_specific_elsewhere == 0 ? " -> every kernel loads\n"
                                                  : fmt::format(" -> every kernel loads but {} arch-specific one(s) for "
                                                                "other devices\n", grouped(t.arch_specific_elsewhere)));
    case ImageOutcome::NeedsNewerDriver:
      if (sass + jit == 0) return s + " -> every launch fails with 'the provided PTX was compiled with an unsupported toolchain' (222)\n";
      break;
    case ImageOutcome::Missing: return s + " -> every launch fails with 'no kernel image'\n";
    default: break;
  }
  return s + fmt::format(" -> {} kernel(s) have no image here: launching one fails\n", grouped(bad));
}

// "images used: sass sm_80 x3,420, sass sm_86 x3,531": wrapped under its first image.
std::string images_used_line(const std::map<std::string, size_t>& images_used) {
  std::map<std::string, size_t, ByArchLabel> ordered(images_used.begin(), images_used.end());
  std::string used;
  for (const auto& [label, n] : ordered) used += fmt::format("{}{} x{}", used.empty() ? "" : ", ", label, grouped(n));
  return text::wrap(used, text::kColumns, "    images used: ", "                 ");
}

// One cause group: the count with an example kernel on one line (a long name cut; every name is in
// --kernels and --json), the cause below it in at most three lines.
std::string cause_lines(const std::string& cause, const std::vector<std::string>& names) {
  const std::string head = fmt::format("    {} kernel(s), e.g. ", grouped(names.size()));
  return text::shorten(head + names.front(), text::kColumns) + "\n" +
         text::wrap(cause, text::kColumns, "      ", "      ", 3);
}

// The file's fatbin entries counted by target (SASS, PTX), by other kind and by compression; the
// problems that left part of it unread.
void print_inventory(const std::string& path, const binary::BinaryFile& file, json& jf) {
  TargetCounts sass, ptx;
  std::map<std::string, size_t> other, compression;
  for (const auto& e : file.entries()) {
    if (!e.is_image) ++other["kind " + std::to_string(e.raw_kind)];
    else (e.target.kind == arch::ImageKind::Sass ? sass : ptx)[entry_label(e)]++;
    ++compression[std::string(binary::compression_name(e.compression))];
  }
  std::cout << text::wrap_text(fmt::format("{}: {} entries in {} fatbin container(s)\n", path,
                                           grouped(file.entries().size()), file.container_count()));
  auto line = [](const char* title, const auto& m) {
    std::string s;
    if (m.empty()) s += " none";
    for (const auto& [k, v] : m) s += fmt::format(" {} x{}", k, grouped(v));
    return text::wrap(s.substr(1), text::kColumns, fmt::format("  {:<6} ", title), std::string(9, ' '));
  };
  std::cout << line("SASS", sass) << line("PTX", ptx);
  for (const auto& problem : file.problems()) {
    std::cout << text::wrap("not read: " + problem + "; the rest of the file is judged", text::kColumns, "  ", "    ");
  }
  jf["problems"] = file.problems();
  if (!other.empty()) std::cout << line("other", other);
  std::cout << line("compr.", compression);
  jf["sass"] = sass;
  jf["ptx"] = ptx;
  jf["other"] = other;
  jf["compression"] = compression;
}

// Each kernel's images and its verdict on every device: listed (--kernels), kept in the JSON.
void list_kernels(const std::vector<binary::KernelImages>& kernels, const std::vector<arch::DeviceSpec>& devices,
                  const std::vector<arch::DeviceFacts>& facts, bool print, json& jf) {
  jf["kernels"] = json::array();
  for (const auto& k : kernels) {
    json jk{{"mangled", k.mangled}, {"demangled", k.demangled}, {"images", json::array()}, {"verdicts", json::object()}};
    for (const auto& img : k.images) jk["images"].push_back(img.name());
    std::string verdicts;
    for (size_t d = 0; d < devices.size(); ++d) {
      const arch::Verdict v = arch::predict(arch::ImageSet{k.images, {0, 0}}, facts[d]);
      jk["verdicts"][devices[d].label] = {{"status", outcome_name(v.status)}, {"label", v.label()},
                                          {"cause", v.cause}, {"fix", v.fix}};
      verdicts += fmt::format("  [{}: {}]", devices[d].cc.str(), v.label());
    }
    if (print) {  // the name on its line (cut when long: --json has it whole), images and verdicts below
      std::string images;
      for (const auto& img : k.images) images += (images.empty() ? "" : " ") + img.name();
      std::cout << text::shorten("    " + k.demangled, text::kColumns) << "\n"
                << text::wrap(fmt::format("<{}>{}", images, verdicts), text::kColumns, "      ", "        ");
    }
    jf["kernels"].push_back(std::move(jk));
  }
}

// The file's verdict on every device, by its kernels' images and by the CUDA runtime it pins: printed,
// with the failing kernels grouped by cause and the fix, and kept in the JSON. True when it does not
// run on one of them.
bool judge_on_devices(const std::string& path, const binary::BinaryFile& file,
                      const std::vector<binary::KernelImages>& kernels, binary::BinaryKind kind,
                      const std::vector<arch::DeviceSpec>& devices, const std::vector<arch::DeviceFacts>& facts,
                      json& jf) {
  bool any_missing = false;
  // The CUDA runtime the file pins (what it links, its own name, its cubins' toolkit notes)
  // against each device's driver: scan's rule.
  std::vector<std::string> names = file.needed();
  names.push_back(std::filesystem::path(path).filename().string());
  const auto runtime = stack::runtime_need(names, file.toolkit_release());
  jf["needed"] = file.needed();
  jf["devices"] = json::array();
  for (size_t d = 0; d < devices.size(); ++d) {
    const binary::CoverageTally t = binary::tally_kernels(kernels, facts[d]);
    const ImageOutcome images = binary::judge(kind, t);  // by the images alone
    const bool runtime_too_new = runtime && devices[d].driver.known() && devices[d].driver.major() < runtime->cuda_major;
    const ImageOutcome verdict = runtime_too_new ? ImageOutcome::NeedsNewerDriver : images;
    any_missing |= !binary::runs(verdict);
    std::cout << text::wrap_text(fmt::format("  on {}\n", device_title(devices[d])) +
                                 device_summary(devices[d], t, kind, images));
    if (!t.images_used.empty()) std::cout << images_used_line(t.images_used);
    std::string fix;
    if (runtime_too_new) {
      const int branch = arch::minimum_driver_branch_for_runtime(runtime->cuda_major);
      std::cout << text::wrap(fmt::format("built for the CUDA {} runtime ({}): it needs a driver of branch {} or "
                                          "newer; this one reports CUDA {}", runtime->cuda_major, runtime->library,
                                          branch, devices[d].driver.str()),
                              text::kColumns, "    ", "      ");
      fix = fmt::format("update the driver to branch {}+, or use a build for CUDA {}.x", branch, devices[d].driver.major());
    }
    // A dispatching library's kernels for other GPUs are not failures: only its verdict is said.
    if (kind == binary::BinaryKind::WholeList || !binary::runs(images)) {
      int shown = 0;
      for (const auto& [cause, names_failing] : t.failing_by_cause) {
        if (++shown > 5) {
          std::cout << fmt::format("    ... and {} more cause(s) (see --kernels or --json)\n", t.failing_by_cause.size() - 5);
          break;
        }
        std::cout << cause_lines(cause, names_failing);
      }
      if (fix.empty() && !binary::runs(images)) {
        const bool own = std::filesystem::exists(path) && std::filesystem::exists("/proc/self/exe") &&
                         std::filesystem::equivalent(path, "/proc/self/exe");
        fix = own ? t.first_fix
                  : stack::arch_fix(kind == binary::BinaryKind::Dispatching ? stack::PackageRole::VendorLibrary
                                                                                  : stack::PackageRole::Extension,
                                    std::filesystem::path(path).filename().string(), devices[d].cc,
                                    stack::AdviceContext{std::atoi(build_manifest().nvcc_version.c_str())});
      }
    }
    if (!fix.empty()) std::cout << text::wrap(fix, text::kColumns, "    fix: ", "         ");
    json jd{{"label", devices[d].label}, {"cc", devices[d].cc.str()}, {"driver", devices[d].driver.str()},
            {"kernels", kernels.size()}, {"counts", json::object()}, {"verdict", outcome_name(verdict)},
            {"runs", binary::runs(verdict)}, {"fix", fix}, {"images_used", t.images_used},
            {"runtime", runtime ? json{{"cuda_major", runtime->cuda_major}, {"library", runtime->library}} : json(nullptr)}};
    for (const auto& [status, n] : t.by_status) jd["counts"][std::string(outcome_name(status))] = n;
    jf["devices"].push_back(std::move(jd));
  }
  return any_missing;
}

int inspect_command(const InspectOptions& o) {
  const TextToStderr text_to_stderr(is_stdout(o.json_path));  // --json -: JSON alone on stdout
  const auto specs = device_specs_or_explain("inspect", o.devices, o.driver, o.fleet_path);
  if (!specs) return kUsage;
  const std::vector<arch::DeviceSpec>& devices = *specs;
  const bool need_kernels = o.kernels || !devices.empty() || o.filter != "*";
  bool unreadable = false, any_missing = false, nothing_judged = false;
  size_t kernels_matched = 0;
  std::vector<std::string> kernel_names;  // every kernel seen, for the suggestion when --filter matches none
  json report{{"schema", "archbench.inspect"}, {"schema_version", 1}, {"files", json::array()}};

  for (const auto& path : o.files) {
    std::optional<binary::BinaryFile> file;
    try {
      file = binary::BinaryFile::open(path);
    } catch (const std::exception& e) {
      std::cerr << text::wrap_text("archbench inspect: " + std::string(e.what()) + "\n");
      unreadable = true;
      continue;
    }
    json jf{{"path", path}, {"containers", file->container_count()}, {"device_code", !file->entries().empty()}};
    if (file->entries().empty()) {
      // Host code only: nothing here can be judged for a device, which is not a pass.
      std::cout << text::wrap_text(fmt::format("{}: no device code in this file (no fatbin in it: host code only){}\n",
                                               path, devices.empty() ? "" : "; not judged for any device"));
      if (const auto name = std::filesystem::path(path).filename().string(); name.starts_with("libcudnn.so")) {
        std::cout << "  cuDNN loads its kernels from the libcudnn_engines_*.so and libcudnn_*.so libraries beside "
                     "it: inspect those\n";
      }
      nothing_judged |= !devices.empty();
      report["files"].push_back(std::move(jf));
      continue;
    }
    print_inventory(path, *file, jf);

    if (need_kernels) {
      std::vector<binary::KernelImages> kernels;
      try {
        kernels = file->kernels();
      } catch (const std::exception& e) {
        std::cerr << text::wrap_text("archbench inspect: " + std::string(e.what()) + "\n");
        unreadable = true;
        continue;
      }
      const size_t all_kernels = kernels.size();
      if (o.filter != "*") {
        for (const auto& k : kernels) kernel_names.push_back(k.demangled);
        std::erase_if(kernels, [&](const binary::KernelImages& k) {
          return !id_matches(o.filter, k.demangled) && !id_matches(o.filter, k.mangled);
        });
      }
      kernels_matched += kernels.size();
      std::cout << (o.filter == "*" ? fmt::format("  kernels: {}\n", grouped(kernels.size()))
                                    : fmt::format("  kernels: {} of {} match --filter '{}'; the other {} are not judged\n",
                                                  grouped(kernels.size()), grouped(all_kernels), o.filter,
                                                  grouped(all_kernels - kernels.size())));

      if (kernels.empty()) {  // no kernel (or none the filter kept): nothing to judge here, which is no pass
        if (all_kernels == 0 && !devices.empty()) {
          std::cout << "  no kernel entry points in its device code: not judged for any device\n";
          nothing_judged = true;
        }
        report["files"].push_back(std::move(jf));
        continue;
      }
      const binary::KindGuess kind = binary::classify_binary(std::filesystem::path(path).filename().string(), file->entries());
      jf["kind"] = binary::kind_name(kind.kind);
      jf["kind_why"] = kind.why;
      std::vector<arch::DeviceFacts> facts;
      for (const auto& d : devices) facts.push_back(arch::DeviceFacts{d.cc, d.driver});
      if (o.kernels || !o.json_path.empty()) list_kernels(kernels, devices, facts, o.kernels, jf);
      any_missing |= judge_on_devices(path, *file, kernels, kind.kind, devices, facts, jf);
    }
    report["files"].push_back(std::move(jf));
  }

  if (o.filter != "*" && kernels_matched == 0 && !kernel_names.empty()) {
    std::cerr << "archbench inspect: "
              << no_match_message(o.filter, kernel_names, "kernel", "`archbench inspect FILE --kernels` lists them")
              << "\n";
    return kUsage;
  }
  if (!o.json_path.empty() && !write_or_say("inspect", o.json_path, report.dump(2) + "\n")) return kInternal;
  if (unreadable) return kBadInput;
  return any_missing || nothing_judged ? kOperatorFailed : kOk;
}

}  // namespace

void add_inspect_command(CLI::App& app, Commands& commands) {
  auto [cmd, o] = add_command(app, commands, "inspect",
      "list the SASS/PTX images and kernels in binaries; predict devices (no GPU needed)", inspect_command);
  value_name(cmd->add_option("files", o->files, "ELF executables, shared libraries, objects, fatbin or cubin files"), "FILE...")->required();
  cmd->add_flag("--kernels", o->kernels, "list every kernel with its images (and verdicts)");
  add_filter_option(cmd, o->filter, "kernel names (demangled or mangled)");
  add_json_option(cmd, o->json_path, "the inventory and verdicts", "archbench.inspect v1");
  value_name(cmd->add_option("--device", o->devices, "predict for a device: CC (8.9, 89, sm_89), CC@driver (12.0@12080), or a product (\"RTX 4090\", 4090, H100, V100)")->allow_extra_args(false), "DEVICE");
  value_name(cmd->add_option("--driver", o->driver, "driver for devices given without one: CUDA version (12.8) or branch (580)"), "VERSION");
  value_name(cmd->add_option("--fleet", o->fleet_path, "JSON file listing devices (see docs/inspect.md)"), "FILE");
}

}  // namespace archbench::cli

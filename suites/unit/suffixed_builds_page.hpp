// The table and the example finding of docs/arch-lists-and-verdicts.md, "`a` and `f` targets", as the tests that
// check them read them: the verdict label per device (row) and arch list (column).
#pragma once

#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness/arch/target.hpp"

namespace archbench::test {

struct SuffixedBuildsPage {
  struct Device {
    arch::ComputeCapability cc;
    std::string title;                // "10.3 (B300)"
    std::vector<std::string> labels;  // one per build, "sass sm_100f"
  };
  std::vector<std::string> builds;  // the column headers, "9.0a;8.0+PTX"
  std::vector<Device> devices;
  std::vector<std::string> example;  // the lines of the text block under the table ("missing: ...", "fix: ...")

  // The label the page gives `build` on `device`; throws for a build the table lacks.
  [[nodiscard]] const std::string& label(const std::string& build, const Device& device) const {
    for (size_t i = 0; i < builds.size(); ++i) {
      if (builds[i] == build) return device.labels.at(i);
    }
    throw std::out_of_range("no column '" + build + "' in the page's table");
  }
};

namespace suffixed_builds_page_detail {

inline std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" `");
  const auto e = s.find_last_not_of(" `");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

// "| a | b |" -> {"a", "b"}, backquotes and spaces trimmed.
inline std::vector<std::string> cells(const std::string& line) {
  std::vector<std::string> out;
  size_t at = 1;
  for (size_t bar; (bar = line.find('|', at)) != std::string::npos; at = bar + 1) {
    out.push_back(trim(line.substr(at, bar - at)));
  }
  return out;
}

}  // namespace suffixed_builds_page_detail

// ARCHBENCH_TEST_FIXTURES is <source>/suites/fixtures.
inline SuffixedBuildsPage read_suffixed_builds_page() {
  using namespace suffixed_builds_page_detail;
  const std::string path = std::string(ARCHBENCH_TEST_FIXTURES) + "/../../docs/arch-lists-and-verdicts.md";
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  SuffixedBuildsPage page;
  bool inside = false;
  int fences = 0;  // the section's first fenced block is the example
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("## ")) inside = line == "## `a` and `f` targets";
    if (!inside) continue;
    if (line.starts_with("| device |")) {
      const auto header = cells(line);
      page.builds.assign(header.begin() + 1, header.end());
    } else if (line.starts_with("| ") && !page.builds.empty()) {
      const auto row = cells(line);
      SuffixedBuildsPage::Device d;
      d.title = row.at(0);
      if (std::sscanf(d.title.c_str(), "%d.%d", &d.cc.major, &d.cc.minor) != 2) {
        throw std::runtime_error("row '" + line + "' of " + path + " does not start with a compute capability");
      }
      d.labels.assign(row.begin() + 1, row.end());
      if (d.labels.size() != page.builds.size()) throw std::runtime_error("row '" + line + "' has another cell count");
      page.devices.push_back(std::move(d));
    } else if (line.find("```") != std::string::npos) {
      ++fences;
    } else if (fences == 1) {
      page.example.push_back(trim(line));
    }
  }
  return page;
}

}  // namespace archbench::test

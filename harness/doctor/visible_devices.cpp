// CUDA_VISIBLE_DEVICES read as CUDA reads it (hardware_layer.hpp, VisibleDevices).
#include "harness/doctor/hardware_layer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "harness/doctor/text.hpp"

namespace archbench::doctor {
namespace {

// An ordinal entry as strtoul would read it.
struct Ordinal {
  bool digits = false;
  bool negative = false;
  long long value = 0;
  std::string trailing;  // what follows the number
};

Ordinal read_ordinal(std::string_view entry) {
  Ordinal o;
  size_t i = 0;
  while (i < entry.size() && std::isspace(static_cast<unsigned char>(entry[i])) != 0) ++i;
  if (i < entry.size() && (entry[i] == '+' || entry[i] == '-')) o.negative = entry[i++] == '-';
  const size_t start = i;
  while (i < entry.size() && std::isdigit(static_cast<unsigned char>(entry[i])) != 0) {
    if (o.value < 1'000'000) o.value = o.value * 10 + (entry[i] - '0');
    ++i;
  }
  o.digits = i > start;
  o.trailing = trim(entry.substr(i));
  return o;
}

bool looks_like_uuid_tail(std::string_view s, bool mig) {
  if (s.empty()) return false;
  return std::ranges::all_of(s, [&](char c) {
    return std::isxdigit(static_cast<unsigned char>(c)) != 0 || c == '-' ||
           (mig && (c == '/' || c == 'G' || c == 'P' || c == 'U'));
  });
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

VisibleDevices analyze_visible_devices(const std::optional<std::string>& value, int gpu_count,
                                       const std::vector<std::string>& uuids) {
  VisibleDevices v;
  if (!value) return v;
  v.set = true;
  v.value = *value;
  const std::string all = trim(*value);
  if (all.empty()) {
    v.problems.push_back("the list is empty");
    v.hides_all = true;
    return v;
  }
  const auto entries = split(all, ',');
  const bool uuid_mode = all.starts_with("GPU-") || all.starts_with("MIG-");
  if (!uuid_mode) {
    std::set<long long> seen;
    for (const auto& raw : entries) {
      const Ordinal o = read_ordinal(raw);
      const std::string entry = trim(raw);
      if (!o.digits) {
        std::string hint;
        const std::string l = lower(entry);
        if (entry.starts_with("GPU-") || entry.starts_with("MIG-"))
          hint = " (indices and UUIDs cannot be mixed)";
        else if (l.starts_with("gpu") || l.starts_with("cuda:") || l.starts_with("cuda"))
          hint = " (write the bare index, e.g. 0)";
        v.problems.push_back("'" + entry + "' is not an index" + hint + ": CUDA stops reading the list there");
        break;
      }
      if (o.negative && o.value != 0) {
        v.problems.push_back("'" + entry + "' is negative: CUDA stops reading the list there");
        break;
      }
      if (!o.trailing.empty()) {
        const bool range = o.trailing.front() == '-' || o.trailing.front() == ':';
        v.problems.push_back("'" + entry + "' reads as " + std::to_string(o.value) +
                             (range ? " (ranges are not supported)" : " (the rest of the entry is ignored)"));
      }
      if (gpu_count >= 0 && o.value >= gpu_count) {
        v.problems.push_back(
            fmt::format("index {} is not below the {} GPU(s) on this machine: CUDA stops reading the list there",
                        o.value, gpu_count));
        break;
      }
      if (!seen.insert(o.value).second) {
        v.problems.push_back(
            fmt::format("index {} is listed twice (a repeated entry empties the whole list)", o.value));
        v.selected.clear();
        v.hides_all = true;
        return v;
      }
      v.selected.push_back(std::to_string(o.value));
    }
  } else {
    const std::string prefix = all.substr(0, 4);
    const bool mig = prefix == "MIG-";
    std::set<std::string> resolved;
    for (const auto& raw : entries) {
      const std::string entry = trim(raw);
      if (!entry.starts_with(prefix)) {
        v.problems.push_back("'" + entry + "' is not a " + prefix +
                             " UUID (indices and UUIDs cannot be mixed): CUDA stops reading the list there");
        break;
      }
      if (!looks_like_uuid_tail(std::string_view(entry).substr(4), mig)) {
        v.problems.push_back(
            "'" + entry + "' is not a UUID (" + prefix +
            " followed by hex digits and dashes, as nvidia-smi -L prints): CUDA stops reading the list there");
        break;
      }
      std::string key = lower(entry);
      if (!mig && !uuids.empty()) {
        std::vector<std::string> matches;
        for (const auto& u : uuids) {
          if (lower(u).starts_with(key)) matches.push_back(u);
        }
        if (matches.empty()) {
          v.problems.push_back("'" + entry + "' matches no GPU on this machine: CUDA stops reading the list there");
          break;
        }
        if (matches.size() > 1) {
          v.problems.push_back("'" + entry + "' is ambiguous (matches " + std::to_string(matches.size()) +
                               " GPUs): CUDA stops reading the list there");
          break;
        }
        key = lower(matches.front());
      }
      if (!resolved.insert(key).second) {
        v.problems.push_back("'" + entry + "' names a GPU already listed (a repeated entry empties the whole list)");
        v.selected.clear();
        v.hides_all = true;
        return v;
      }
      v.selected.push_back(entry);
    }
    if (mig && v.selected.size() > 1) {
      v.problems.push_back(fmt::format(
          "{} MIG instances are listed, but a CUDA process enumerates only one MIG instance", v.selected.size()));
    }
  }
  if (v.selected.empty()) v.hides_all = true;
  return v;
}

}  // namespace archbench::doctor

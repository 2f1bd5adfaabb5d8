// A directory tree: walked without following symbolic links (a venv's lib64 -> lib would count
// every file twice, and a link loop would never end), every regular file's first bytes read,
// candidates parsed in parallel; dist-info and conda-meta directories give the distributions.
#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <array>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "harness/stack/readers.hpp"

namespace archbench::stack {
namespace fs = std::filesystem;
namespace {

std::string read_text(const fs::path& p, size_t max = size_t{64} << 20) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return {};
  std::string s;
  s.resize(max);
  in.read(s.data(), static_cast<std::streamsize>(max));
  s.resize(static_cast<size_t>(in.gcount()));
  return s;
}

// The first bytes of a file, or an error message.
bool looks_like_device_code(const fs::path& p, std::string& error) {
  const int fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0) {
    error = std::strerror(errno);
    return false;
  }
  std::array<std::byte, 4> head{};
  const ssize_t n = ::pread(fd, head.data(), head.size(), 0);
  ::close(fd);
  if (n < 0) {
    error = std::strerror(errno);
    return false;
  }
  return binary::may_hold_device_code(std::span<const std::byte>(head.data(), static_cast<size_t>(n)));
}

void read_dist_info(const fs::path& dir, std::vector<Distribution>& dists) {
  Distribution d;
  auto [name, version] = parse_metadata(read_text(dir / "METADATA"));
  if (name.empty()) {  // "torch-2.11.0.dist-info"
    const std::string stem = dir.filename().string();
    const std::string base = stem.substr(0, stem.size() - std::string(".dist-info").size());
    name = base.substr(0, base.find('-'));
    if (const auto dash = base.find('-'); dash != std::string::npos) version = base.substr(dash + 1);
  }
  d.package.name = name;
  d.package.version = version;
  d.package.origin = Package::Origin::DistInfo;
  d.package.where = dir.string();
  read_declared_cuda(d.package);
  d.root = dir.parent_path().lexically_normal().string();
  d.files = parse_record(read_text(dir / "RECORD"));
  dists.push_back(std::move(d));
}

void read_conda_meta(const fs::path& dir, std::vector<Distribution>& dists, Inventory& inv) {
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() != ".json") continue;
    try {
      const auto j = nlohmann::json::parse(read_text(it->path()));
      Distribution d;
      d.package.name = j.value("name", "");
      d.package.version = j.value("version", "");
      d.package.origin = Package::Origin::Conda;
      d.package.where = it->path().string();
      d.root = dir.parent_path().lexically_normal().string();
      for (const auto& f : j.value("files", nlohmann::json::array())) {
        if (f.is_string()) d.files.push_back(f.get<std::string>());
      }
      if (!d.package.name.empty()) dists.push_back(std::move(d));
    } catch (const nlohmann::json::exception& e) {
      inv.unreadable.push_back({it->path().string(), std::string("not a conda package record: ") + e.what()});
    }
  }
}

}  // namespace

void read_tree(const std::string& root, const ReadOptions& o, Inventory& inv, std::vector<Distribution>& dists) {
  const fs::path top = fs::absolute(root).lexically_normal();
  std::vector<fs::path> candidates;
  std::vector<fs::path> pending{top};
  size_t links = 0, seen = 0;
  while (!pending.empty()) {
    const fs::path dir = std::move(pending.back());
    pending.pop_back();
    std::error_code ec;
    fs::directory_iterator it(dir, ec), end;
    if (ec) {
      inv.unreadable.push_back({dir.string(), "cannot list the directory: " + ec.message()});
      continue;
    }
    for (; it != end; it.increment(ec)) {
      if (ec) {
        inv.unreadable.push_back({dir.string(), "stopped listing the directory: " + ec.message()});
        break;
      }
      const auto& entry = *it;
      std::error_code sec;
      const auto status = entry.symlink_status(sec);
      if (sec) {
        inv.unreadable.push_back({entry.path().string(), sec.message()});
        continue;
      }
      if (fs::is_symlink(status)) {
        ++links;
        continue;
      }
      if (fs::is_directory(status)) {
        const std::string name = entry.path().filename().string();
        if (name.ends_with(".dist-info")) read_dist_info(entry.path(), dists);
        if (name == "conda-meta") read_conda_meta(entry.path(), dists, inv);
        pending.push_back(entry.path());
        continue;
      }
      if (!fs::is_regular_file(status)) continue;
      ++seen;
      std::error_code size_ec;
      inv.bytes_seen += entry.file_size(size_ec);
      std::string error;
      if (looks_like_device_code(entry.path(), error)) {
        candidates.push_back(entry.path());
      } else if (!error.empty()) {
        inv.unreadable.push_back({entry.path().string(), "cannot read: " + error});
      }
      if (o.progress && seen % 4096 == 0) o.progress(inv.files_seen + seen, inv.files.size());
    }
  }
  inv.files_seen += seen;
  if (links > 0) inv.notes.push_back(fmt::format("{}: {} symbolic link(s) not followed (their targets are scanned where they lie in the tree)", top.string(), links));

  // Parse the candidates in parallel: each is mapped, its section and fatbin headers read.
  std::vector<std::optional<DeviceCodeFile>> found(candidates.size());
  std::vector<std::string> errors(candidates.size());
  std::atomic<size_t> next{0}, done{0};
  auto work = [&] {
    for (size_t i = next++; i < candidates.size(); i = next++) {
      try {
        const auto file = binary::BinaryFile::open(candidates[i].string());
        found[i] = describe(file, o.kernels);
      } catch (const std::exception& e) {
        errors[i] = e.what();
      }
      ++done;
    }
  };
  const unsigned threads = std::max(1U, o.threads != 0 ? o.threads : std::thread::hardware_concurrency());
  {
    std::vector<std::jthread> pool;
    for (unsigned t = 0; t < std::min<size_t>(threads, std::max<size_t>(1, candidates.size())); ++t) pool.emplace_back(work);
  }
  for (size_t i = 0; i < candidates.size(); ++i) {
    if (!errors[i].empty()) {
      inv.unreadable.push_back({candidates[i].string(), errors[i]});
      continue;
    }
    if (!found[i]) continue;
    DeviceCodeFile f = std::move(*found[i]);
    f.source = top.string();
    f.key = candidates[i].lexically_normal().string();
    f.path = candidates[i].lexically_relative(top).generic_string();
    std::error_code ec;
    f.size = fs::file_size(candidates[i], ec);
    inv.files.push_back(std::move(f));
  }
  if (o.progress) o.progress(inv.files_seen, inv.files.size());
}

void read_binary(const std::string& path, const ReadOptions& o, Inventory& inv) {
  ++inv.files_seen;
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  inv.bytes_seen += ec ? 0 : size;
  try {
    const auto file = binary::BinaryFile::open(path);
    auto f = describe(file, o.kernels);
    if (!f) {
      inv.notes.push_back(path + ": no device code in this file (no fatbin, or one that defines no kernel)");
      return;
    }
    f->source = path;
    f->key = fs::absolute(path).lexically_normal().string();
    f->path = path;
    f->size = ec ? 0 : size;
    inv.files.push_back(std::move(*f));
  } catch (const std::exception& e) {
    inv.unreadable.push_back({path, e.what()});
  }
}

}  // namespace archbench::stack

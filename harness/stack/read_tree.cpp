// A directory tree: walked without following symbolic links (a venv's lib64 -> lib would count
// every file twice, and a link loop would never end), every regular file's first bytes read,
// candidates parsed in parallel; dist-info and conda-meta directories give the distributions.
#include <fcntl.h>
#include <fmt/format.h>
#include <dirent.h>
#include <sys/stat.h>
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

#include "harness/stack/declared_arch_list.hpp"
#include "harness/stack/readers.hpp"

namespace archbench::stack {
namespace fs = std::filesystem;
namespace {

// A small text file (METADATA, RECORD, a conda record), at most `max` bytes of it.
std::string read_text(const fs::path& p, size_t max = size_t{64} << 20) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return {};
  std::string s;
  char buf[1 << 16];
  while (s.size() < max && in.read(buf, sizeof buf).gcount() > 0) s.append(buf, static_cast<size_t>(in.gcount()));
  if (s.size() > max) s.resize(max);
  return s;
}

// What one regular file turned out to be: device code, an error, or neither.
struct Sniffed {
  uint64_t size = 0;
  std::optional<DeviceCodeFile> found;
  std::string error;
};

// Reads a file's first bytes (a stat, an open, one pread) and parses it only when they are
// those of an ELF, PE or fatbin.
Sniffed sniff(const fs::path& p, bool kernels) {
  Sniffed out;
  const int fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0) {
    out.error = std::string("cannot read: ") + std::strerror(errno);
    return out;
  }
  std::array<std::byte, 4> head{};
  const ssize_t n = ::pread(fd, head.data(), head.size(), 0);
  const int err = errno;
  const std::span<const std::byte> first(head.data(), n > 0 ? static_cast<size_t>(n) : 0);
  // Three system calls for a file that is not device code (most are not); an ELF file's section
  // names then say whether it holds any, without mapping it.
  bool candidate = n >= 0 && binary::may_hold_device_code(first);
  if (candidate) {
    struct stat st {};
    out.size = ::fstat(fd, &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
    candidate = first[0] != std::byte{0x7f} || binary::elf_names_device_code(fd, out.size);
  }
  ::close(fd);
  if (n < 0) {
    out.error = std::string("cannot read: ") + std::strerror(err);
    return out;
  }
  if (!candidate) return out;
  try {
    out.found = describe(binary::BinaryFile::open(p.string()), kernels);
  } catch (const std::exception& e) {
    out.error = e.what();
  }
  return out;
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
  // 1. The listing: directories read one by one with readdir, whose entry types spare a stat
  //    per entry; symbolic links skipped; dist-info and conda-meta read as they come.
  std::vector<fs::path> files;
  std::vector<fs::path> declaring;  // files that may declare an arch list (libtorch_python.so)
  std::vector<fs::path> pending{top};
  size_t links = 0;
  while (!pending.empty()) {
    const fs::path dir = std::move(pending.back());
    pending.pop_back();
    DIR* d = ::opendir(dir.c_str());
    if (d == nullptr) {
      inv.unreadable.push_back({dir.string(), std::string("cannot list the directory: ") + std::strerror(errno)});
      continue;
    }
    while (const dirent* e = ::readdir(d)) {
      const std::string_view name(e->d_name);
      if (name == "." || name == "..") continue;
      fs::path path = dir / e->d_name;
      unsigned char type = e->d_type;
      if (type == DT_UNKNOWN) {  // some file systems do not say: ask
        struct stat st {};
        if (::lstat(path.c_str(), &st) != 0) {
          inv.unreadable.push_back({path.string(), std::strerror(errno)});
          continue;
        }
        type = S_ISLNK(st.st_mode) ? DT_LNK : S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG : DT_UNKNOWN;
      }
      if (type == DT_LNK) {
        ++links;
      } else if (type == DT_DIR) {
        if (name.ends_with(".dist-info")) read_dist_info(path, dists);
        if (name == "conda-meta") read_conda_meta(path, dists, inv);
        pending.push_back(std::move(path));
      } else if (type == DT_REG) {
        if (may_declare_arch_list(name)) declaring.push_back(path);
        files.push_back(std::move(path));
      }
    }
    ::closedir(d);
  }
  if (links > 0) inv.notes.push_back(fmt::format("{}: {} symbolic link(s) not followed (their targets are scanned where they lie in the tree)", top.string(), links));

  // 2. Every file's first bytes, and the candidates parsed, in parallel: the work is mostly
  //    waiting on the file system (a VM's shared file system answers each open in tens of us),
  //    so more threads than cores pay.
  std::vector<Sniffed> results(files.size());
  std::atomic<size_t> next{0}, done{0};
  auto work = [&] {
    for (size_t i = next++; i < files.size(); i = next++) {
      results[i] = sniff(files[i], o.kernels);
      const size_t d = ++done;
      if (o.progress && d % 4096 == 0) o.progress(inv.files_seen + d, inv.files.size());
    }
  };
  const unsigned cores = std::max(1U, o.threads != 0 ? o.threads : std::thread::hardware_concurrency());
  const unsigned threads = o.threads != 0 ? o.threads : std::max(cores, 8U);
  {
    std::vector<std::jthread> pool;
    for (unsigned t = 0; t < std::min<size_t>(threads, std::max<size_t>(1, files.size())); ++t) pool.emplace_back(work);
  }
  for (size_t i = 0; i < files.size(); ++i) {
    auto& r = results[i];
    if (!r.error.empty()) {
      inv.unreadable.push_back({files[i].string(), r.error});
      continue;
    }
    if (!r.found) {
      // Artefacts beside the binaries, by name: an AOTInductor package is read as one, a TensorRT
      // engine listed with why it is not judged.
      const std::string name = files[i].filename().string();
      const std::string shown = files[i].lexically_relative(top).generic_string();
      if (name.ends_with(".pt2")) {
        read_aoti_package(files[i].string(), top.string(), files[i].lexically_normal().string(), shown, o, inv);
      } else if (auto engine = tensorrt_engine_note(name)) {
        inv.not_judged.push_back(shown + ": " + *engine);
      }
      continue;
    }
    DeviceCodeFile f = std::move(*r.found);
    f.source = top.string();
    f.key = files[i].lexically_normal().string();
    f.path = files[i].lexically_relative(top).generic_string();
    f.size = r.size;
    add_file(inv, std::move(f));
  }
  inv.files_seen += files.size();
  for (const auto& p : declaring) {
    if (auto targets = read_declared_arch_list(p.string()); !targets.empty())
      inv.declarations.push_back({p.lexically_normal().string(), p.lexically_relative(top).generic_string(), top.string(),
                                  std::move(targets)});
  }
  if (o.progress) o.progress(inv.files_seen, inv.files.size());
}

void read_binary(const std::string& path, const ReadOptions& o, Inventory& inv) {
  ++inv.files_seen;
  if (auto engine = tensorrt_engine_note(fs::path(path).filename().string())) {
    inv.not_judged.push_back(path + ": " + *engine);
    return;
  }
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  try {
    const auto file = binary::BinaryFile::open(path);
    auto f = describe(file, o.kernels);
    if (!f) {
      inv.notes.push_back(path + ": no device code in this file (no fatbin)");
      return;
    }
    f->source = path;
    f->key = fs::absolute(path).lexically_normal().string();
    f->path = path;
    f->size = ec ? 0 : size;
    add_file(inv, std::move(*f));
  } catch (const std::exception& e) {
    inv.unreadable.push_back({path, e.what()});
  }
}

}  // namespace archbench::stack

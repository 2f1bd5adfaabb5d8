// Wheels and container images, read in place through libarchive: member names are never used
// as paths to write to, sizes are capped (archive_reader.hpp), and a member that is not what it
// claims becomes an Unreadable entry while the rest is read.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <string_view>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "harness/stack/archive_reader.hpp"
#include "harness/stack/declared_arch_list.hpp"
#include "harness/stack/readers.hpp"

namespace archbench::stack {
namespace fs = std::filesystem;
namespace {

constexpr uint64_t kMaxTextBytes = uint64_t{64} << 20;  // a RECORD, METADATA or manifest

std::string as_text(const std::vector<std::byte>& b) { return {reinterpret_cast<const char*>(b.data()), b.size()}; }

// "./a/../b" -> "b"; a name that climbs out of the archive or is absolute is noted, never used
// as a path (nothing is extracted): it keeps its normalised spelling for attribution.
std::string member_path(const std::string& name, const std::string& archive, Inventory& inv) {
  const fs::path p(name);
  const std::string normal = p.lexically_normal().generic_string();
  if (p.is_absolute() || normal.starts_with("../") || normal == "..") {
    inv.notes.push_back(fmt::format("{}: member '{}' names a path outside the archive (read in place, never "
                                    "extracted)", archive, name));
  }
  std::string s = normal;
  while (s.starts_with("/")) s.erase(0, 1);
  while (s.starts_with("../")) s.erase(0, 3);
  return s;
}

// The current member, `name` in the archive `archive` (the wheel, or an image's layer) of the file
// `source`, if it is device code: an inventory file of `source` keyed by `name` (errors become
// Unreadable, under "ARCHIVE!NAME").
std::optional<DeviceCodeFile> read_member(ArchiveReader& r, const ArchiveMember& m, const std::string& source,
                                          const std::string& archive, const std::string& name, const ReadOptions& o,
                                          Inventory& inv) {
  const std::string display = archive + "!" + name;
  ++inv.files_seen;
  try {
    if (m.size && *m.size > kMaxMemberBytes) {  // refused before a byte of it is inflated
      inv.unreadable.push_back({display, fmt::format("declares {} bytes, over the {} MiB limit: not read", *m.size,
                                                     kMaxMemberBytes >> 20)});
      return std::nullopt;
    }
    if (auto engine = tensorrt_engine_note(fs::path(name).filename().string())) {
      inv.not_judged.push_back(display + ": " + *engine);
      return std::nullopt;
    }
    if (!binary::may_hold_device_code(r.peek(4))) return std::nullopt;
    const auto file = binary::BinaryFile::from_bytes(display, r.read());
    auto f = describe(file, o.kernels);
    if (f) {
      f->size = m.size.value_or(0);
      f->source = source;
      f->key = name;
      f->path = name;
    }
    return f;
  } catch (const std::exception& e) {
    inv.unreadable.push_back({display, e.what()});
    return std::nullopt;
  }
}

// The zip archive at `path`, or null with `shown_as` Unreadable for `why` and libarchive's reason.
std::unique_ptr<ArchiveReader> open_zip(const std::string& path, const std::string& shown_as, std::string_view why,
                                        Inventory& inv) {
  try {
    return ArchiveReader::open_file(path, ArchiveFormat::Zip);
  } catch (const ArchiveError& e) {
    inv.unreadable.push_back({shown_as, std::string(why) + ": " + e.what()});
    return nullptr;
  }
}

}  // namespace

void read_wheel(const std::string& path, const ReadOptions& o, Inventory& inv, std::vector<Distribution>& dists) {
  const auto r = open_zip(path, path, "not a readable wheel (a wheel is a zip archive)", inv);
  if (!r) return;
  Distribution d;
  d.package.origin = Package::Origin::Wheel;
  d.package.where = path;
  d.source = path;
  std::string metadata, record;
  const size_t first = inv.files.size();
  const size_t first_declaration = inv.declarations.size();
  try {
    ArchiveMember m;
    while (r->next(m)) {
      if (m.type != ArchiveMember::Type::File) continue;
      const std::string name = member_path(m.name, path, inv);
      const bool dist_info = fs::path(name).parent_path().string().ends_with(".dist-info");
      if (dist_info && fs::path(name).filename() == "METADATA") {
        metadata = as_text(r->read(kMaxTextBytes));
        continue;
      }
      if (dist_info && fs::path(name).filename() == "RECORD") {
        record = as_text(r->read(kMaxTextBytes));
        continue;
      }
      if (may_declare_arch_list(fs::path(name).filename().string()) && (!m.size || *m.size <= kMaxMemberBytes)) {
        // Host code only (libtorch_python.so): its declared arch list is all we need from it.
        if (auto targets = find_declared_arch_list(r->read()); !targets.empty())
          inv.declarations.push_back({name, name, path, std::move(targets)});
        ++inv.files_seen;
        continue;
      }
      auto f = read_member(*r, m, path, path, name, o, inv);
      if (!f) continue;
      add_file(inv, std::move(*f));
      if (o.progress) o.progress(inv.files_seen, inv.files.size());
    }
  } catch (const std::exception& e) {
    inv.unreadable.push_back({path, std::string("stopped reading the wheel: ") + e.what()});
  }
  auto [name, version] = parse_metadata(metadata);
  if (name.empty()) {  // {name}-{version}(-{build})?-{python}-{abi}-{platform}.whl
    const std::string stem = fs::path(path).stem().string();
    name = stem.substr(0, stem.find('-'));
    const auto v = stem.find('-');
    version = v == std::string::npos ? "" : stem.substr(v + 1, stem.find('-', v + 1) - v - 1);
  }
  d.package.name = name;
  d.package.version = version;
  read_declared_cuda(d.package);
  // Every file of the wheel is the wheel's, listed in its RECORD or not.
  for (size_t i = first; i < inv.files.size(); ++i) d.files.push_back(inv.files[i].key);
  for (size_t i = first_declaration; i < inv.declarations.size(); ++i) d.files.push_back(inv.declarations[i].key);
  dists.push_back(std::move(d));
}

void read_aoti_package(const std::string& path, const std::string& source, const std::string& key,
                       const std::string& shown_as, const ReadOptions& o, Inventory& inv) {
  const auto r = open_zip(path, shown_as, "not a readable AOTInductor package (a .pt2 is a zip archive)", inv);
  if (!r) return;
  try {
    ArchiveMember m;
    while (r->next(m)) {
      if (m.type != ArchiveMember::Type::File) continue;
      const std::string name = member_path(m.name, shown_as, inv);
      auto f = read_member(*r, m, source, shown_as, name, o, inv);
      if (!f) continue;
      f->key = key + "!" + name;
      f->path = shown_as + "!" + name;
      add_file(inv, std::move(*f));
    }
  } catch (const std::exception& e) {
    inv.unreadable.push_back({shown_as, std::string("stopped reading the AOTInductor package: ") + e.what()});
  }
}

namespace {

// Where the OCI layout keeps the blob of a digest: "sha256:ab12" is "blobs/sha256/ab12".
std::string blob_path(const std::string& digest) {
  const auto colon = digest.find(':');
  return "blobs/" + digest.substr(0, colon) + "/" + digest.substr(colon + 1);
}

// The layers of an image in the order they apply, by member name in the outer tar: from
// `docker save`'s manifest.json, or the OCI layout's index.json and the manifest blob it names.
std::vector<std::string> layer_order(const std::map<std::string, std::string>& small, const std::string& image) {
  if (auto it = small.find("manifest.json"); it != small.end()) {
    const auto j = nlohmann::json::parse(it->second);
    if (!j.is_array() || j.empty()) throw ArchiveError(image + ": manifest.json lists no image");
    std::vector<std::string> layers;
    for (const auto& l : j.at(0).at("Layers")) layers.push_back(fs::path(l.get<std::string>()).lexically_normal().generic_string());
    return layers;
  }
  auto blob = [&](const std::string& digest) {
    const auto it = small.find(blob_path(digest));
    if (it == small.end()) throw ArchiveError(image + ": the OCI layout names " + digest + ", which it does not hold");
    return nlohmann::json::parse(it->second);
  };
  const auto index = small.find("index.json");
  if (index == small.end()) throw ArchiveError(image + ": neither manifest.json (docker save) nor index.json (OCI layout)");
  auto manifest = blob(nlohmann::json::parse(index->second).at("manifests").at(0).at("digest").get<std::string>());
  if (manifest.contains("manifests")) manifest = blob(manifest.at("manifests").at(0).at("digest").get<std::string>());
  std::vector<std::string> layers;
  for (const auto& l : manifest.at("layers")) layers.push_back(blob_path(l.at("digest").get<std::string>()));
  return layers;
}

// What the final file system holds so far: device-code files and dist-info texts, by path.
struct View {
  std::map<std::string, DeviceCodeFile> files;
  std::map<std::string, std::string> texts;  // */METADATA and */RECORD of dist-info directories

  // Removes `path` and everything under it (a whiteout of a file or a directory).
  void remove_tree(const std::string& path) {
    auto drop = [&](auto& m) {
      m.erase(path);
      const std::string prefix = path + "/";
      for (auto it = m.lower_bound(prefix); it != m.end() && it->first.starts_with(prefix);) it = m.erase(it);
    };
    drop(files);
    drop(texts);
  }
};

}  // namespace

void read_image(const std::string& path, const ReadOptions& o, Inventory& inv, std::vector<Distribution>& dists) {
  std::vector<std::string> layers;
  try {
    // Pass 1: the small members (manifests, configs); layers are skipped without decompressing.
    std::map<std::string, std::string> small;
    auto r = ArchiveReader::open_file(path, ArchiveFormat::Tar);
    ArchiveMember m;
    while (r->next(m)) {
      if (m.type != ArchiveMember::Type::File || !m.size || *m.size > (uint64_t{1} << 20)) continue;
      const std::string name = fs::path(m.name).lexically_normal().generic_string();
      if (name == "manifest.json" || name == "index.json" || name.starts_with("blobs/")) small[name] = as_text(r->read(kMaxTextBytes));
    }
    layers = layer_order(small, path);
  } catch (const std::exception& e) {
    inv.unreadable.push_back({path, std::string("not a readable container image archive: ") + e.what()});
    return;
  }

  View view;
  for (size_t i = 0; i < layers.size(); ++i) {
    const std::string layer_name = fmt::format("{}!layer {} ({})", path, i + 1, layers[i]);
    std::set<std::string> whiteouts, opaque, present;
    std::map<std::string, DeviceCodeFile> found;
    std::map<std::string, std::string> texts;
    std::vector<std::pair<std::string, std::string>> hardlinks;  // path, target
    try {
      auto outer = ArchiveReader::open_file(path, ArchiveFormat::Tar);
      ArchiveMember m;
      bool located = false;
      while (outer->next(m)) {
        if (fs::path(m.name).lexically_normal().generic_string() == layers[i]) {
          located = true;
          break;
        }
      }
      if (!located) throw ArchiveError("the archive does not hold the layer " + layers[i]);
      auto layer = ArchiveReader::open_member(*outer, fmt::format("layer {}", i + 1), ArchiveFormat::Tar);
      while (layer->next(m)) {
        const std::string name = member_path(m.name, layer_name, inv);
        const std::string base = fs::path(name).filename().string();
        const std::string dir = fs::path(name).parent_path().generic_string();
        if (base == ".wh..wh..opq") {
          opaque.insert(dir);
          continue;
        }
        if (base.starts_with(".wh.")) {
          whiteouts.insert((dir.empty() ? "" : dir + "/") + base.substr(4));
          continue;
        }
        present.insert(name);
        if (m.type == ArchiveMember::Type::Hardlink) {
          hardlinks.emplace_back(name, member_path(m.link_target, layer_name, inv));
          continue;
        }
        if (m.type != ArchiveMember::Type::File) continue;
        if (dir.ends_with(".dist-info") && (base == "METADATA" || base == "RECORD")) {
          texts[name] = as_text(layer->read(kMaxTextBytes));
          continue;
        }
        auto f = read_member(*layer, m, path, layer_name, name, o, inv);
        if (!f) continue;
        found.emplace(name, std::move(*f));
        if (o.progress) o.progress(inv.files_seen, inv.files.size() + view.files.size() + found.size());
      }
    } catch (const std::exception& e) {
      inv.unreadable.push_back({layer_name, std::string("layer not read (the image is judged without it): ") + e.what()});
      continue;
    }
    // A layer's whiteouts hide what the layers below hold; its own files then apply on top.
    for (const auto& dir : opaque) {
      for (auto* m : {&view.files}) {
        const std::string prefix = dir.empty() ? "" : dir + "/";
        for (auto it = m->lower_bound(prefix); it != m->end() && it->first.starts_with(prefix);) it = m->erase(it);
      }
      const std::string prefix = dir.empty() ? "" : dir + "/";
      for (auto it = view.texts.lower_bound(prefix); it != view.texts.end() && it->first.starts_with(prefix);) it = view.texts.erase(it);
    }
    for (const auto& w : whiteouts) view.remove_tree(w);
    for (const auto& p : present) {  // a file of this layer replaces whatever lay there below
      view.files.erase(p);
      view.texts.erase(p);
    }
    for (auto& [p, f] : found) view.files.insert_or_assign(p, std::move(f));
    for (auto& [p, t] : texts) view.texts.insert_or_assign(p, std::move(t));
    for (const auto& [p, target] : hardlinks) {
      if (auto it = view.files.find(target); it != view.files.end()) {
        DeviceCodeFile copy = it->second;
        copy.key = copy.path = p;
        view.files.insert_or_assign(p, std::move(copy));
      }
    }
  }
  for (auto& [p, f] : view.files) add_file(inv, std::move(f));
  // The dist-info directories of the final file system.
  std::map<std::string, std::pair<std::string, std::string>> info;  // dir -> METADATA, RECORD
  for (const auto& [p, t] : view.texts) {
    const std::string dir = fs::path(p).parent_path().generic_string();
    (fs::path(p).filename() == "METADATA" ? info[dir].first : info[dir].second) = t;
  }
  for (const auto& [dir, texts] : info) {
    Distribution d;
    auto [name, version] = parse_metadata(texts.first);
    d.package.name = name.empty() ? fs::path(dir).filename().string() : name;
    d.package.version = version;
    d.package.origin = Package::Origin::DistInfo;
    d.package.where = path + "!" + dir;
    d.source = path;
    read_declared_cuda(d.package);
    d.root = fs::path(dir).parent_path().generic_string();
    d.files = parse_record(texts.second);
    dists.push_back(std::move(d));
  }
}

SourceKind source_kind_of(const std::string& path) {
  if (fs::is_directory(path)) return SourceKind::Tree;
  if (!fs::exists(path)) throw std::system_error(std::make_error_code(std::errc::no_such_file_or_directory), path);
  if (path.ends_with(".whl")) return SourceKind::Wheel;
  if (path.ends_with(".pt2")) return SourceKind::AotiPackage;
  // A tar (any compression) holding manifest.json or index.json at its top is an image.
  try {
    auto r = ArchiveReader::open_file(path, ArchiveFormat::Tar);
    ArchiveMember m;
    for (int i = 0; i < 64 && r->next(m); ++i) {
      const std::string name = fs::path(m.name).lexically_normal().generic_string();
      if (name == "manifest.json" || name == "index.json" || name == "oci-layout") return SourceKind::Image;
    }
    // A long docker-save tar lists its manifest last: look through the headers only.
    while (r->next(m)) {
      const std::string name = fs::path(m.name).lexically_normal().generic_string();
      if (name == "manifest.json" || name == "index.json") return SourceKind::Image;
    }
  } catch (const ArchiveError&) {
    if (!archives_supported()) {  // say so for what looks like a tar (ustar magic) rather than "not ELF"
      std::ifstream in(path, std::ios::binary);
      std::array<char, 262> head{};
      in.read(head.data(), head.size());
      if (in.gcount() == static_cast<std::streamsize>(head.size()) && std::string_view(head.data() + 257, 5) == "ustar") {
        return SourceKind::Image;
      }
    }
  }
  return SourceKind::Binary;
}

void read_source(const std::string& path, const ReadOptions& o, Inventory& inv, std::vector<Distribution>& dists) {
  inv.sources.push_back(path);
  switch (source_kind_of(path)) {
    case SourceKind::Tree: read_tree(path, o, inv, dists); break;
    case SourceKind::Wheel: read_wheel(path, o, inv, dists); break;
    case SourceKind::Image: read_image(path, o, inv, dists); break;
    case SourceKind::AotiPackage: read_aoti_package(path, path, fs::absolute(path).lexically_normal().string(), path, o, inv); break;
    case SourceKind::Binary: read_binary(path, o, inv); break;
  }
}

}  // namespace archbench::stack

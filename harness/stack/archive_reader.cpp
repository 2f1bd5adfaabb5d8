#include "harness/stack/archive_reader.hpp"

#include <archive.h>
#include <archive_entry.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <type_traits>
#include <utility>

namespace archbench::stack {
namespace {

constexpr size_t kChunk = size_t{1} << 20;

void support(archive* a, ArchiveFormat format) {
  if (format == ArchiveFormat::Zip) {
    archive_read_support_format_zip(a);
  } else {
    archive_read_support_format_tar(a);
    archive_read_support_format_gnutar(a);
    // The compressions image layers use, each read in-process: support_filter_all would also
    // enable formats that libarchive decodes by running an external program.
    archive_read_support_filter_gzip(a);
    archive_read_support_filter_zstd(a);
    archive_read_support_filter_xz(a);
    archive_read_support_filter_bzip2(a);
    archive_read_support_filter_lz4(a);
  }
}

}  // namespace

ArchiveReader::ArchiveReader(std::string name, ArchiveReader* outer)
    : name_(std::move(name)), a_(archive_read_new()), outer_(outer) {
  if (a_ == nullptr) throw ArchiveError(name_ + ": out of memory opening the archive");
}

ArchiveReader::~ArchiveReader() {
  if (a_ != nullptr) archive_read_free(a_);
}

void ArchiveReader::fail(const std::string& what) const {
  std::string detail = a_ != nullptr && archive_error_string(a_) != nullptr ? archive_error_string(a_) : "";
  while (!detail.empty() && std::isspace(static_cast<unsigned char>(detail.back()))) detail.pop_back();
  throw ArchiveError(name_ + ": " + what + (detail.empty() ? "" : " (" + detail + ")"));
}

std::unique_ptr<ArchiveReader> ArchiveReader::open_file(const std::string& path, ArchiveFormat format) {
  std::unique_ptr<ArchiveReader> r(new ArchiveReader(path, nullptr));
  support(r->a_, format);
  if (archive_read_open_filename(r->a_, path.c_str(), 1 << 16) != ARCHIVE_OK) {
    r->fail(format == ArchiveFormat::Zip ? "not a readable zip archive" : "not a readable tar archive");
  }
  return r;
}

std::unique_ptr<ArchiveReader> ArchiveReader::open_memory(const std::string& name, std::span<const std::byte> bytes,
                                                          ArchiveFormat format) {
  std::unique_ptr<ArchiveReader> r(new ArchiveReader(name, nullptr));
  support(r->a_, format);
  if (archive_read_open_memory(r->a_, bytes.data(), bytes.size()) != ARCHIVE_OK) {
    r->fail(format == ArchiveFormat::Zip ? "not a readable zip archive" : "not a readable tar archive");
  }
  return r;
}

static_assert(std::is_same_v<la_ssize_t, long>, "read_outer's return type is libarchive's la_ssize_t");

bool archives_supported() { return true; }

long ArchiveReader::read_outer(archive*, void* self, const void** buffer) {
  auto* me = static_cast<ArchiveReader*>(self);
  me->outer_chunk_.resize(kChunk);
  const la_ssize_t n = archive_read_data(me->outer_->a_, me->outer_chunk_.data(), kChunk);
  *buffer = me->outer_chunk_.data();
  return n;
}

std::unique_ptr<ArchiveReader> ArchiveReader::open_member(ArchiveReader& outer, const std::string& name,
                                                          ArchiveFormat format) {
  std::unique_ptr<ArchiveReader> r(new ArchiveReader(outer.name_ + "!" + name, &outer));
  support(r->a_, format);
  // libarchive pulls the nested stream chunk by chunk from the outer member.
  if (archive_read_open(r->a_, r.get(), nullptr, &ArchiveReader::read_outer, nullptr) != ARCHIVE_OK) {
    r->fail("not a readable tar stream");
  }
  return r;
}

bool ArchiveReader::next(ArchiveMember& m) {
  archive_entry* e = nullptr;
  const int rc = archive_read_next_header(a_, &e);
  if (rc == ARCHIVE_EOF) return false;
  if (rc < ARCHIVE_WARN) fail("corrupt or truncated archive");
  buffer_.clear();
  member_done_ = false;
  const char* path = archive_entry_pathname(e);
  m.name = path != nullptr ? path : "";
  m.size = archive_entry_size_is_set(e) ? std::optional<uint64_t>(static_cast<uint64_t>(archive_entry_size(e))) : std::nullopt;
  const char* link = archive_entry_hardlink(e);
  m.link_target.clear();
  if (link != nullptr) {
    m.type = ArchiveMember::Type::Hardlink;
    m.link_target = link;
    return true;
  }
  switch (archive_entry_filetype(e)) {
    case AE_IFREG: m.type = ArchiveMember::Type::File; break;
    case AE_IFDIR: m.type = ArchiveMember::Type::Directory; break;
    case AE_IFLNK:
      m.type = ArchiveMember::Type::Symlink;
      if (const char* t = archive_entry_symlink(e)) m.link_target = t;
      break;
    default: m.type = ArchiveMember::Type::Other; break;
  }
  return true;
}

void ArchiveReader::fill(uint64_t want, uint64_t max) {
  while (!member_done_ && buffer_.size() < want) {
    const size_t at = buffer_.size();
    const size_t room = static_cast<size_t>(std::min<uint64_t>(kChunk, max + 1 - at));
    buffer_.resize(at + room);
    const la_ssize_t n = archive_read_data(a_, buffer_.data() + at, room);
    if (n < 0) {
      buffer_.resize(at);
      fail("corrupt member data");
    }
    buffer_.resize(at + static_cast<size_t>(n));
    if (n == 0) member_done_ = true;
    if (buffer_.size() > max) fail("a member holds more than " + std::to_string(max >> 20) + " MiB: refused");
  }
}

std::span<const std::byte> ArchiveReader::peek(size_t n) {
  fill(n, kMaxMemberBytes);
  return std::span<const std::byte>(buffer_).first(std::min(n, buffer_.size()));
}

std::vector<std::byte> ArchiveReader::read(uint64_t max) {
  fill(max + 1, max);
  return std::move(buffer_);
}

}  // namespace archbench::stack

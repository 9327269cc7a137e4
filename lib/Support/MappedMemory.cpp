//===- MappedMemory.cpp - Keep file mappings out of the resident set ------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Support/MappedMemory.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

using namespace emit;

namespace {
struct Mapping {
  ArrayRef<char> region;
  uint64_t fileOffset; // Of the region's first byte in the file.
  int fd;              // Read-only descriptor of the mapped file, or -1.
  uint64_t id;         // Unique for the process's life, unlike descriptors.
};
/// A file this process reads bytes of, as it was when first seen.
struct Source {
  int fd; // Of the very file read, kept open to the end of the process.
  std::string path;
  dev_t device;
  ino_t inode;
  off_t size;
  struct timespec modified;
};
struct Registry {
  std::mutex mutex;
  std::vector<Mapping> regions;
  uint64_t nextId = 1;
  std::vector<Source> sources;
  std::string unreadable; // A file a read of came short, if any.
};

} // namespace

static Registry &getRegistry() {
  static Registry registry;
  return registry;
}

/// Records the file `fd` (of `path`) as a source, once, with its size and
/// modification time now.
static void recordSource(Registry &registry, int fd, StringRef path) {
  struct stat status;
  if (fstat(fd, &status) != 0)
    return;
  for (const Source &source : registry.sources)
    if (source.device == status.st_dev && source.inode == status.st_ino)
      return;
  int kept = fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (kept >= 0)
    registry.sources.push_back({kept, path.str(), status.st_dev, status.st_ino,
                                status.st_size, status.st_mtim});
}

bool emit::checkSourcesUnchanged(std::string &error) {
  Registry &registry = getRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  if (!registry.unreadable.empty()) {
    error = "'" + registry.unreadable +
            "' could not be read to the end: it was truncated or changed "
            "while it was read";
    return false;
  }
  for (const Source &source : registry.sources) {
    struct stat status;
    if (fstat(source.fd, &status) != 0 || status.st_size != source.size ||
        status.st_mtim.tv_sec != source.modified.tv_sec ||
        status.st_mtim.tv_nsec != source.modified.tv_nsec) {
      error = "'" + source.path + "' changed while it was read";
      return false;
    }
  }
  return true;
}

std::unique_ptr<MappedFile> MappedFile::open(StringRef path,
                                             std::string &error) {
  // The mapping and the descriptor reads go through are of one file, opened
  // once: a path could name another file by the time it is opened again.
  int fd = ::open(path.str().c_str(), O_RDONLY | O_CLOEXEC);
  struct stat status;
  if (fd < 0 || fstat(fd, &status) != 0) {
    error = std::strerror(errno);
    if (fd >= 0)
      close(fd);
    return nullptr;
  }
  auto buffer = llvm::MemoryBuffer::getOpenFile(
      fd, path, status.st_size, /*RequiresNullTerminator=*/false);
  if (!buffer) {
    error = buffer.getError().message();
    close(fd);
    return nullptr;
  }
  std::unique_ptr<MappedFile> file(new MappedFile());
  file->buffer = std::move(*buffer);
  // A small file is read, not mapped: its bytes are a copy, read once.
  if (file->buffer->getBufferKind() == llvm::MemoryBuffer::MemoryBuffer_MMap) {
    file->fd = fd;
    Registry &registry = getRegistry();
    std::lock_guard<std::mutex> lock(registry.mutex);
    registry.regions.push_back({file->getBytes(), 0, fd, registry.nextId++});
    recordSource(registry, fd, path);
  } else {
    close(fd);
  }
  return file;
}

MappedFile::~MappedFile() {
  if (fd < 0)
    return;
  ArrayRef<char> region = getBytes();
  Registry &registry = getRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  auto it = std::find_if(registry.regions.begin(), registry.regions.end(),
                         [&](const Mapping &mapping) {
                           return mapping.region.data() == region.data() &&
                                  mapping.region.size() == region.size();
                         });
  if (it != registry.regions.end())
    registry.regions.erase(it);
  close(fd);
}

ArrayRef<char> MappedFile::getBytes() const {
  return ArrayRef<char>(buffer->getBufferStart(), buffer->getBufferSize());
}

std::unique_ptr<llvm::MemoryBuffer> MappedFile::getView() const {
  return llvm::MemoryBuffer::getMemBuffer(buffer->getMemBufferRef(),
                                          /*RequiresNullTerminator=*/false);
}

/// The registered mapping holding all of `bytes`, if any.
static std::optional<Mapping> findRegisteredMapping(ArrayRef<char> bytes) {
  Registry &registry = getRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  for (const Mapping &mapping : registry.regions)
    if (bytes.begin() >= mapping.region.begin() &&
        bytes.end() <= mapping.region.end())
      return mapping;
  return std::nullopt;
}

/// Pieces from this size on are copied file to file by the kernel.
static constexpr size_t kLargePieceSize = 1 << 20;

static constexpr size_t kChunkSize = kReadAheadSize;

/// The bytes of a file most recently read into one per-thread buffer.
struct Window {
  uint64_t mappingId = 0; // 0: nothing read yet.
  off_t offset = 0;
  size_t size = 0;
};

/// One of two per-thread chunk buffers, allocated on first use, and what it
/// holds.
static char *chunkBuffer(unsigned index, Window *&window) {
  thread_local std::unique_ptr<char[]> buffers[2];
  thread_local Window windows[2];
  // Not zeroed: only the pages a read fills become resident (a header's
  // few bytes take one page, not the chunk).
  if (!buffers[index])
    buffers[index] = std::unique_ptr<char[]>(new char[kChunkSize]);
  window = &windows[index];
  return buffers[index].get();
}

namespace {
/// Where a piece of memory comes from: a registered file mapping, read with
/// pread, or plain memory, read in place.
class ChunkSource {
public:
  explicit ChunkSource(ArrayRef<char> bytes) : bytes(bytes) {
    if (std::optional<Mapping> mapping = findRegisteredMapping(bytes);
        mapping && mapping->fd >= 0) {
      fd = mapping->fd;
      mappingId = mapping->id;
      regionEnd = mapping->fileOffset + mapping->region.size();
      fileOffset =
          mapping->fileOffset + (bytes.data() - mapping->region.data());
    }
  }

  /// The mapped file's descriptor, or -1 when the bytes are not a file's.
  int getFD() const { return fd; }
  /// The file offset of the bytes' first byte, when they are a file's.
  off_t getFileOffset() const { return fileOffset; }

  /// Calls `consume` with consecutive pieces of the bytes from `from` on,
  /// read through per-thread buffer 0 with read-ahead.
  void forEach(size_t from,
               llvm::function_ref<void(ArrayRef<char>)> consume) const {
    for (size_t offset = from; offset < bytes.size(); offset += kChunkSize) {
      size_t size = std::min(kChunkSize, bytes.size() - offset);
      consume(read(offset, size, /*index=*/0, /*readAhead=*/true));
    }
  }

  /// `size` (at most kChunkSize) bytes from `offset`: from the file through
  /// per-thread buffer `index`, or in place when the bytes are not a file's
  /// (or the file cannot be read, in which case the mapping is the only way
  /// left to them). A read the buffer already holds costs nothing; with
  /// `readAhead`, a short read fills the buffer, for neighbours read next.
  ArrayRef<char> read(size_t offset, size_t size, unsigned index,
                      bool readAhead) const {
    if (fd < 0)
      return bytes.slice(offset, size);
    Window *window;
    char *buffer = chunkBuffer(index, window);
    off_t start = fileOffset + offset;
    if (window->mappingId == mappingId && start >= window->offset &&
        start + size <= window->offset + window->size)
      return {buffer + (start - window->offset), size};
    size_t length = size;
    if (readAhead)
      length = std::max<size_t>(
          size, std::min<size_t>(kChunkSize, regionEnd - start));
    *window = Window();
    size_t got = readUpTo(buffer, length, start);
    if (got < size) {
      // The file is shorter than when it was mapped: reading the mapping
      // would fault. Hand out zeros and fail the output (see
      // checkSourcesUnchanged).
      recordUnreadable();
      std::memset(buffer, 0, size);
    } else {
      // A read-ahead may stop at the end of the file, before the end of
      // the mapping's last page.
      *window = {mappingId, start, got};
    }
    return {buffer, size};
  }

private:
  void recordUnreadable() const {
    char link[64];
    snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
    llvm::SmallString<256> path;
    path.resize(PATH_MAX);
    ssize_t length = readlink(link, path.data(), path.size());
    path.resize(length > 0 ? length : 0);
    Registry &registry = getRegistry();
    std::lock_guard<std::mutex> lock(registry.mutex);
    if (registry.unreadable.empty())
      registry.unreadable = path.empty() ? "an input" : path.str().str();
  }

  /// Reads `size` bytes from `offset`, or fewer at the end of the file;
  /// returns how many were read.
  size_t readUpTo(char *buffer, size_t size, off_t offset) const {
    size_t done = 0;
    while (done < size) {
      ssize_t got = pread(fd, buffer + done, size - done, offset + done);
      if (got < 0 && errno == EINTR)
        continue;
      if (got <= 0)
        break;
      done += got;
    }
    return done;
  }

  ArrayRef<char> bytes;
  int fd = -1;            // The mapped file, when the bytes are a file's.
  uint64_t mappingId = 0; // Its mapping's id.
  uint64_t regionEnd = 0; // File offset of the mapping's end.
  off_t fileOffset = 0;
};
} // namespace

void emit::forEachChunk(ArrayRef<char> bytes,
                        llvm::function_ref<void(ArrayRef<char>)> consume) {
  ChunkSource(bytes).forEach(0, consume);
}

void emit::copyFront(ArrayRef<char> bytes, MutableArrayRef<char> out) {
  assert(out.size() <= bytes.size() && out.size() <= kChunkSize &&
         "copyFront reads a header's bytes");
  // Per-thread buffer 1: buffer 0 may hold a neighbour read ahead.
  ArrayRef<char> front =
      ChunkSource(bytes).read(0, out.size(), /*index=*/1, /*readAhead=*/false);
  std::copy(front.begin(), front.end(), out.begin());
}

bool emit::equalBytes(ArrayRef<char> a, ArrayRef<char> b, bool readAheadA,
                      bool readAheadB) {
  if (a.size() != b.size())
    return false;
  if (a.data() == b.data())
    return true;
  ChunkSource sourceA(a), sourceB(b);
  for (size_t offset = 0; offset < a.size(); offset += kChunkSize) {
    size_t size = std::min(kChunkSize, a.size() - offset);
    // A payload compared with several others in turn is read once.
    ArrayRef<char> pieceA = sourceA.read(offset, size, 0, readAheadA);
    ArrayRef<char> pieceB = sourceB.read(offset, size, 1, readAheadB);
    if (std::memcmp(pieceA.data(), pieceB.data(), size) != 0)
      return false;
  }
  return true;
}

void emit::releaseMappedPages(ArrayRef<char> bytes) {
  if (bytes.empty() || !findRegisteredMapping(bytes))
    return;
  static const uintptr_t pageSize = llvm::sys::Process::getPageSizeEstimate();
  uintptr_t begin = reinterpret_cast<uintptr_t>(bytes.data());
  uintptr_t end = begin + bytes.size();
  begin = (begin + pageSize - 1) & ~(pageSize - 1);
  end &= ~(pageSize - 1);
  if (begin < end)
    (void)madvise(reinterpret_cast<void *>(begin), end - begin, MADV_DONTNEED);
}

namespace {
/// Reads a raw_fd_ostream's descriptor, which LLVM 19 keeps protected.
struct FileDescriptorOf : llvm::raw_fd_ostream {
  static int get(const llvm::raw_fd_ostream &stream) {
    return (stream.*(&FileDescriptorOf::get_fd))();
  }
};
} // namespace

/// `os` as a raw_fd_ostream, if that is exactly its dynamic type. LLVM is
/// built without RTTI and gives raw_fd_ostream no stream kind of its own
/// (OK_FDStream is raw_fd_stream's), so the type is told by the object's
/// vtable pointer, compared with that of a stream that writes nowhere. A
/// subclass or another build's copy of the class compares unequal, which
/// only costs the kernel copy below.
static llvm::raw_fd_ostream *asFileStream(raw_ostream &os) {
  static const auto *probe =
      new llvm::raw_fd_ostream(/*fd=*/-1, /*shouldClose=*/false);
  const void *streamVtable, *probeVtable;
  std::memcpy(&streamVtable, static_cast<const void *>(&os),
              sizeof(streamVtable));
  std::memcpy(&probeVtable, static_cast<const void *>(probe),
              sizeof(probeVtable));
  if (streamVtable != probeVtable)
    return nullptr;
  return static_cast<llvm::raw_fd_ostream *>(&os);
}

static std::atomic<uint64_t> kernelCopiedBytes{0};

uint64_t emit::getKernelCopiedBytes() { return kernelCopiedBytes.load(); }

void emit::writeBytes(raw_ostream &os, ArrayRef<char> bytes) {
  // Large payloads of a mapped input, written to a file: the kernel copies
  // them file to file (copy_file_range), and they never pass through this
  // process.
  ChunkSource source(bytes);
  size_t done = 0;
  llvm::raw_fd_ostream *file =
      bytes.size() >= kLargePieceSize && source.getFD() >= 0 ? asFileStream(os)
                                                             : nullptr;
  if (file && file->supportsSeeking()) {
    file->flush();
    loff_t in = source.getFileOffset();
    loff_t out = file->tell();
    while (done < bytes.size()) {
      ssize_t copied =
          copy_file_range(source.getFD(), &in, FileDescriptorOf::get(*file),
                          &out, bytes.size() - done, 0);
      if (copied <= 0)
        break; // Not supported here (or an error): write the rest instead.
      done += copied;
      kernelCopiedBytes += copied;
    }
    file->seek(out);
  }
  // A raw_ostream writes a piece directly, without copying it into its
  // buffer, when the buffer is empty and the piece larger.
  static_assert(kChunkSize > kWriteBufferSize);
  if (bytes.size() - done >= kChunkSize)
    os.flush();
  source.forEach(done, [&](ArrayRef<char> chunk) {
    os.write(chunk.data(), chunk.size());
  });
}

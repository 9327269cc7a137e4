//===- OtherFormats.cpp - What a file that is no ExecuTorch file is -------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Support/OtherFormats.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Endian.h"

#include <algorithm>

using namespace emit;

namespace {
/// What a ZIP archive's entry names say it holds.
enum class ArchiveKind { Unknown, Checkpoint, TorchScript, Mobile, Exported };
} // namespace

/// The most central directory entries read: PyTorch's archives hold a few
/// per tensor; past this the kind stays what the first ones said.
static constexpr unsigned kMaxEntries = 1 << 16;
/// The end of central directory record: its size, and its comment's most.
static constexpr size_t kEndRecordBytes = 22;
static constexpr size_t kMaxCommentBytes = 0xFFFF;

static uint32_t readLE32(StringRef bytes, size_t at) {
  return llvm::support::endian::read32le(bytes.data() + at);
}
static uint16_t readLE16(StringRef bytes, size_t at) {
  return llvm::support::endian::read16le(bytes.data() + at);
}

/// The kind one entry's name tells, if any.
static ArchiveKind kindOfEntry(StringRef name) {
  if (name.ends_with("bytecode.pkl"))
    return ArchiveKind::Mobile;
  if (name.contains("/code/") || name.ends_with("constants.pkl"))
    return ArchiveKind::TorchScript;
  if (name.contains("serialized_exported_program") ||
      name.ends_with("archive_format"))
    return ArchiveKind::Exported;
  if (name.ends_with("data.pkl"))
    return ArchiveKind::Checkpoint;
  return ArchiveKind::Unknown;
}

/// What a ZIP archive holds, from the names of its central directory,
/// found from its end record; Unknown where the directory does not read.
static ArchiveKind readArchiveKind(StringRef bytes) {
  if (bytes.size() < kEndRecordBytes)
    return ArchiveKind::Unknown;
  size_t lowest = bytes.size() - kEndRecordBytes -
                  std::min(bytes.size() - kEndRecordBytes, kMaxCommentBytes);
  size_t end = bytes.size() - kEndRecordBytes + 1;
  for (; end > lowest; --end)
    if (bytes.substr(end - 1, 4) == "PK\x05\x06")
      break;
  if (end == lowest)
    return ArchiveKind::Unknown;
  size_t record = end - 1;
  uint64_t entries = readLE16(bytes, record + 10);
  uint64_t at = readLE32(bytes, record + 16);
  uint64_t directoryEnd = at + readLE32(bytes, record + 12);
  if (directoryEnd > record)
    return ArchiveKind::Unknown; // ZIP64, or a damaged directory
  ArchiveKind kind = ArchiveKind::Unknown;
  for (uint64_t entry = 0; entry < std::min<uint64_t>(entries, kMaxEntries) &&
                           at + 46 <= directoryEnd;
       ++entry) {
    if (bytes.substr(at, 4) != "PK\x01\x02")
      break;
    uint64_t nameBytes = readLE16(bytes, at + 28);
    uint64_t next = at + 46 + nameBytes + readLE16(bytes, at + 30) +
                    readLE16(bytes, at + 32);
    if (next > directoryEnd)
      break;
    kind = std::max(kind, kindOfEntry(bytes.substr(at + 46, nameBytes)));
    at = next;
  }
  return kind;
}

static std::string describeArchive(StringRef bytes) {
  const char *what = "a ZIP archive";
  switch (readArchiveKind(bytes)) {
  case ArchiveKind::Mobile:
    what = "a ZIP archive holding a PyTorch Mobile model for the lite "
           "interpreter (.ptl, _save_for_lite_interpreter)";
    break;
  case ArchiveKind::TorchScript:
    what = "a ZIP archive holding a TorchScript model (torch.jit.save)";
    break;
  case ArchiveKind::Exported:
    what = "a ZIP archive holding a torch.export program (.pt2, "
           "torch.export.save), not yet lowered to ExecuTorch";
    break;
  case ArchiveKind::Checkpoint:
    what = "a ZIP archive holding a PyTorch checkpoint (torch.save)";
    break;
  case ArchiveKind::Unknown:
    break;
  }
  return (Twine("this is ") + what +
          ", not an ExecuTorch program: the runtime refuses it. An "
          "ExecuTorch program comes from torch.export, then "
          "to_edge_transform_and_lower and to_executorch(), whose buffer is "
          "the .pte")
      .str();
}

/// A Git LFS pointer: what it points at, from its `oid` and `size` lines.
static std::string describeLFSPointer(StringRef bytes) {
  StringRef text = bytes.take_front(1024);
  std::string target;
  for (StringRef line : llvm::split(text, '\n')) {
    if (line.consume_front("oid "))
      target += (" " + line.take_front(80)).str();
    else if (line.consume_front("size "))
      target += (" of " + line.take_front(20) + " bytes").str();
  }
  return "this is a Git LFS pointer (to the object" + target +
         "), not the file it stands for: fetch the file (git lfs pull) and "
         "give that";
}

std::string emit::describeOtherFormat(StringRef bytes) {
  if (bytes.starts_with("PK\x03\x04") || bytes.starts_with("PK\x05\x06"))
    return describeArchive(bytes);
  if (bytes.starts_with("version https://git-lfs.github.com/spec/"))
    return describeLFSPointer(bytes);
  if (bytes.size() >= 8 && bytes.substr(4, 4) == "TFL3")
    return "this is a TensorFlow Lite model (.tflite), not an ExecuTorch "
           "program: the runtime refuses it";
  if (bytes.starts_with("\x80\x02") || bytes.starts_with("\x80\x04"))
    return "this is a Python pickle (a legacy torch.save file), not an "
           "ExecuTorch program: the runtime refuses it";
  StringRef head = bytes.take_front(64).ltrim();
  if (head.starts_with_insensitive("<!doctype html") ||
      head.starts_with_insensitive("<html"))
    return "this is an HTML page (a download that saved a web page in "
           "place of the file?), not an ExecuTorch file";
  return "";
}

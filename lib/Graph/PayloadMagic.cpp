//===- PayloadMagic.cpp - What a delegate payload's first bytes say -------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "PayloadMagic.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Endian.h"

using namespace emit;
using namespace emit::graph;
namespace endian = llvm::support::endian;

namespace {
/// A header with a magic at byte 4 and regions of the payload after it.
struct RegionHeader {
  const char *magic;
  const char *backend;
  /// Its bytes, and where each region's offset and size lie in it, and
  /// their widths.
  unsigned length;
  struct Region {
    const char *name;
    unsigned offsetAt, offsetBytes, sizeAt, sizeBytes;
  };
  Region regions[2];
};
} // namespace

/// XNNPACK's (runtime/XNNHeader.h) and Vulkan's (VulkanDelegateHeader.cpp)
/// 30-byte headers: a flatbuffer and constant data; MPS's and MLX's 24-byte
/// ones: one data segment of 8-byte offset and size.
static constexpr RegionHeader kHeaders[] = {
    {"XH00",
     "XNNPACK",
     30,
     {{"flatbuffer", 10, 4, 14, 4}, {"constant data", 18, 4, 22, 8}}},
    {"VH00",
     "Vulkan",
     30,
     {{"flatbuffer", 10, 4, 14, 4}, {"constant data", 18, 4, 22, 8}}},
    {"MP00", "MPS", 24, {{"data segment", 8, 8, 16, 8}, {}}},
    {"MLX0", "MLX", 24, {{"data segment", 8, 8, 16, 8}, {}}},
};

/// Flatbuffers whose identifier (byte 4) names them, with no header.
static constexpr const char *kIdentifiers[] = {"XN00", "XN01", "VK00",
                                               "TOSA"};

static uint64_t readLE(StringRef bytes, unsigned at, unsigned size) {
  return size == 8 ? endian::read64le(bytes.data() + at)
                   : endian::read32le(bytes.data() + at);
}

static void checkRegions(const RegionHeader &header, StringRef prefix,
                         uint64_t size, PayloadMagic &found) {
  if (size < header.length || prefix.size() < header.length) {
    found.problems.push_back(
        (Twine("the payload's ") + Twine(size) +
         " bytes are fewer than the " + Twine(header.length) + "-byte " +
         header.backend + " header its magic announces")
            .str());
    return;
  }
  for (const RegionHeader::Region &region : header.regions) {
    if (!region.name)
      continue;
    uint64_t offset = readLE(prefix, region.offsetAt, region.offsetBytes);
    uint64_t bytes = readLE(prefix, region.sizeAt, region.sizeBytes);
    if (offset > size || bytes > size - offset)
      found.problems.push_back(
          (Twine("its ") + header.backend + " header's " + region.name +
           " (offset " + Twine(offset) + ", " + Twine(bytes) +
           " bytes) runs past the " + Twine(size) + "-byte payload")
              .str());
  }
}

PayloadMagic graph::identifyPayload(StringRef prefix, uint64_t size) {
  PayloadMagic found;
  if (prefix.starts_with("vela_bin_stream")) {
    found.magic = "vela_bin_stream";
    return found;
  }
  if (prefix.starts_with("CMJR")) {
    found.magic = "CMJR";
    return found;
  }
  if (prefix.size() >= 4 && endian::read32le(prefix.data()) == 0x5678abcd) {
    found.magic = "0x5678abcd";
    return found;
  }
  if (prefix.size() < 8)
    return found;
  StringRef magic = prefix.substr(4, 4);
  for (const RegionHeader &header : kHeaders)
    if (magic == header.magic) {
      found.magic = magic.str();
      checkRegions(header, prefix, size, found);
      return found;
    }
  for (const char *identifier : kIdentifiers)
    if (magic == identifier)
      found.magic = magic.str();
  return found;
}

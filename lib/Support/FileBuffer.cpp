//===- FileBuffer.cpp - The bytes of one open file --------------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Support/FileBuffer.h"

#include "emit/Support/MappedMemory.h"

using namespace emit;

FileBuffer::~FileBuffer() = default;

std::shared_ptr<const FileBuffer>
FileBuffer::open(StringRef path, std::string &error, StringRef name) {
  std::unique_ptr<MappedFile> file = MappedFile::open(path, error);
  if (!file)
    return nullptr;
  std::shared_ptr<FileBuffer> buffer(new FileBuffer());
  ArrayRef<char> bytes = file->getBytes();
  buffer->bytes = StringRef(bytes.data(), bytes.size());
  buffer->name = (name.empty() ? path : name).str();
  buffer->mapped = std::move(file);
  return buffer;
}

std::shared_ptr<const FileBuffer>
FileBuffer::hold(std::unique_ptr<llvm::MemoryBuffer> held) {
  std::shared_ptr<FileBuffer> buffer(new FileBuffer());
  buffer->bytes = held->getBuffer();
  buffer->name = held->getBufferIdentifier().str();
  buffer->held = std::move(held);
  return buffer;
}

std::shared_ptr<const FileBuffer> FileBuffer::view(StringRef bytes,
                                                   StringRef name) {
  std::shared_ptr<FileBuffer> buffer(new FileBuffer());
  buffer->bytes = bytes;
  buffer->name = name.str();
  return buffer;
}

std::shared_ptr<const FileBuffer>
FileBuffer::slice(std::shared_ptr<const FileBuffer> whole, uint64_t offset,
                  uint64_t size, StringRef name) {
  assert(offset <= whole->bytes.size() &&
         size <= whole->bytes.size() - offset && "a slice past its file");
  std::shared_ptr<FileBuffer> buffer(new FileBuffer());
  buffer->bytes = whole->bytes.substr(offset, size);
  buffer->name = name.str();
  buffer->whole = std::move(whole);
  return buffer;
}

std::unique_ptr<llvm::MemoryBuffer> FileBuffer::getView() const {
  return llvm::MemoryBuffer::getMemBuffer(getMemBufferRef(),
                                          /*RequiresNullTerminator=*/false);
}

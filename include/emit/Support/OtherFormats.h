//===- OtherFormats.h - What a file that is no ExecuTorch file is -*- C++
//-*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Files people save as `.pte` that are something else: a TorchScript or
// PyTorch Mobile model (a ZIP archive), a torch.save checkpoint, a Git LFS
// pointer committed in place of the file, a TensorFlow Lite model. Told
// from their first bytes and, for a ZIP archive, the names in its central
// directory (read from the file's end, bounded): never the whole file.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_SUPPORT_OTHERFORMATS_H
#define EMIT_SUPPORT_OTHERFORMATS_H

#include "emit/Support/LLVM.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace emit {

/// What `bytes` are when they are a format emit knows of but does not
/// read, with what to do about it ("a ZIP archive holding a TorchScript
/// model (torch.jit.save) ..."); empty when emit does not know them.
std::string describeOtherFormat(StringRef bytes);

} // namespace emit

#endif // EMIT_SUPPORT_OTHERFORMATS_H

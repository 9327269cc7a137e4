//===- SummaryText.cpp - The summary as text and as JSON --------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Summary/SummaryModel.h"

#include "emit/Memory/RuntimeModel.h"
#include "emit/Support/Report.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace emit;
using namespace emit::summary;

/// "12.0 MiB (12,582,912 B)": for people, then exact.
static std::string both(uint64_t count) {
  return count < 1024 ? exactBytes(count)
                      : humanBytes(count) + " (" + exactBytes(count) + ")";
}

/// `name 12 B, name 3 B`.
static std::string listBytes(ArrayRef<std::pair<std::string, uint64_t>> items) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleaveComma(items, os, [&](const auto &item) {
    os << item.first << " " << exactBytes(item.second);
  });
  return text;
}

/// What a payload holds, on a line of its own under its blob.
static void printPayload(const PayloadContents &payload, raw_ostream &os) {
  os << "    " << payload.decoder << " payload";
  if (!payload.magic.empty())
    os << " (" << payload.magic << ")";
  os << ": " << listBytes(payload.parts);
  if (payload.nodes)
    os << "; graph of " << counted(*payload.nodes, "node") << ", "
       << counted(*payload.values, "value");
  if (!payload.constantsByDtype.empty())
    os << "; constants by dtype: " << listBytes(payload.constantsByDtype);
  if (payload.namedConstants)
    os << "; " << counted(payload.namedConstants, "constant") << " ("
       << exactBytes(payload.namedConstantBytes) << ") by named key";
  for (const delegate::Field &field : payload.target)
    os << "; " << field.name << " " << field.getText();
  if (payload.problems)
    os << "; " << counted(payload.problems, "problem")
       << " (emit-graph lists them)";
  os << "\n";
}

/// What `backend`'s entries were compiled for, a line per distinct spec.
static void printCompiledFor(raw_ostream &os, const Backend &backend) {
  for (const CompiledFor &target : backend.compiledFor) {
    SmallVector<std::string> settings;
    for (const delegate::Field &setting : target.settings)
      settings.push_back(setting.name + "=" + setting.getText().str());
    os << "    " << counted(target.entries, "entry", "entries") << " by "
       << target.key << ": "
       << (settings.empty() ? "nothing read" : llvm::join(settings, ", "));
    if (target.problems)
      os << "; " << counted(target.problems, "problem")
         << " (emit-graph lists them)";
    os << "\n";
  }
}

static void printWhere(const Summary &summary, raw_ostream &os) {
  os << "where the bytes go:\n";
  if (summary.flatbufferBytes)
    os << "  flatbuffer: " << both(*summary.flatbufferBytes) << "\n";
  if (summary.testSuites && summary.testSuites->bytes)
    os << "  test suites (bundle): " << both(*summary.testSuites->bytes)
       << "\n";
  for (unsigned kind = 0; kind < kNumDataKinds; ++kind)
    if (summary.bytesByKind[kind])
      os << "  " << getKindName(DataKind(kind)) << ": "
         << both(summary.bytesByKind[kind]) << "\n";
  if (!summary.backends.empty()) {
    os << "by backend:\n";
    for (const Backend &backend : summary.backends) {
      os << "  " << backend.id << ": " << backend.entries
         << (backend.entries == 1 ? " entry in " : " entries in ")
         << llvm::join(backend.methods, ", ") << "; "
         << humanBytes(backend.referencedBytes) << " referenced, "
         << humanBytes(backend.distinctBytes) << " distinct\n";
      printCompiledFor(os, backend);
    }
  }
  if (!summary.identical.empty()) {
    os << "identical bytes:\n";
    for (const IdenticalGroup &group : summary.identical) {
      SmallVector<StringRef> names;
      for (unsigned blob : group.blobs)
        names.push_back(summary.blobs[blob].name);
      os << "  " << group.blobs.size() << " x " << humanBytes(group.size)
         << ": " << llvm::join(names, ", ") << "\n";
    }
  }
}

void summary::printText(const Summary &summary, raw_ostream &os) {
  if (summary.dataFile) {
    os << "data file " << summary.name << ": " << summary.blobs.size()
       << " segments, " << summary.keys << " keys, "
       << exactBytes(summary.storedBytes) << " stored\n";
    if (summary.releases)
      os << "  runtime releases that load it: " << summary.releases->loading
         << " (emit-verify --runtime=all says why)\n";
    os << "segments:\n";
    for (const Blob &blob : summary.blobs)
      os << "  " << blob.name << ": " << exactBytes(blob.size) << ", align "
         << blob.alignment << "; "
         << (blob.roles.empty() ? std::string("no key")
                                : "keys " + llvm::join(blob.roles, ", "))
         << "\n";
    os << "after --dedup-delegate-blobs: " << summary.blobsAfterDedup
       << " segments, " << exactBytes(summary.storedBytesAfterDedup)
       << " stored (saves " << exactBytes(summary.dedupSaves()) << ")\n";
    printWhere(summary, os);
    return;
  }
  os << "program " << summary.name << ": " << summary.methods.size()
     << " methods, " << summary.entryCount << " delegate entries, "
     << summary.callCount << " delegate calls, " << summary.blobs.size()
     << " blobs\n";
  if (summary.testSuites)
    os << "  bundled with " << summary.testSuites->suites << " test suites, "
       << summary.testSuites->testCases << " test cases\n";
  os << "  delegate payloads: " << exactBytes(summary.referencedBytes)
     << " referenced by entries, " << exactBytes(summary.storedPayloadBytes)
     << " stored\n";
  if (summary.releases)
    os << "  runtime releases that load it: " << summary.releases->loading
       << " (emit-verify --runtime=all says why)\n";
  if (const auto &kernels = summary.kernels) {
    os << "  kernels (" << kernels->build << ", " << kernels->release
       << "): " << kernels->kernelCalls << " kernel calls besides prim ops, "
       << kernels->countMissingCalls() << " with no kernel in the build\n";
    for (const kernels::MissingKernelCalls &calls : kernels->missing)
      os << "    no kernel: " << kernels::describeMissingCalls(calls) << "\n";
  }
  os << "methods:\n";
  for (const Method &method : summary.methods) {
    os << "  " << method.name << ": " << method.values << " values, "
       << method.chains << " chains, " << method.instructions
       << " instructions, " << method.entries << " delegate entries, "
       << method.calls << " delegate calls, " << method.kernelCalls
       << " kernel calls; planned " << exactBytes(method.plannedBytes);
    if (!method.methodAllocatorBytes.empty()) {
      os << "; method allocator";
      for (auto [index, bytes] : llvm::enumerate(method.methodAllocatorBytes))
        os << (index ? ", " : " ") << exactBytes(bytes) << " ("
           << memory::getRuntimeTargets()[index].name << "-bit)";
    }
    os << "\n";
  }
  os << "blobs:\n";
  for (const Blob &blob : summary.blobs) {
    os << "  " << blob.name << ": " << exactBytes(blob.size) << ", align "
       << blob.alignment << (blob.inlineData ? ", inline" : "") << "; "
       << (blob.roles.empty() ? std::string("unused")
                              : llvm::join(blob.roles, ", "));
    if (blob.users.size() > 1)
      os << "; shared by " << blob.users.size() << " entries";
    if (!blob.users.empty())
      os << ": " << llvm::join(blob.users, ", ");
    os << "\n";
    if (blob.payload)
      printPayload(*blob.payload, os);
  }
  os << "after --dedup-delegate-blobs: " << summary.blobsAfterDedup
     << " blobs, " << exactBytes(summary.storedPayloadBytesAfterDedup)
     << " of payloads stored (saves "
     << exactBytes(summary.storedPayloadBytes -
                   summary.storedPayloadBytesAfterDedup)
     << ")\n";
  printWhere(summary, os);
}

/// Decoded fields as an object under `key`: each a number, a list, ... as
/// the decoder types it.
static void printFieldsJSON(llvm::json::OStream &json, StringRef key,
                            ArrayRef<delegate::Field> fields) {
  json.attributeObject(key, [&] {
    for (const delegate::Field &field : fields) {
      if (field.isString()) {
        json.attribute(field.name, field.getText());
        continue;
      }
      json.attributeBegin(field.name);
      json.rawValue(field.getJSON());
      json.attributeEnd();
    }
  });
}

static void printMethodsJSON(llvm::json::OStream &json,
                             ArrayRef<Method> methods) {
  json.attributeArray("methods", [&] {
    for (const Method &method : methods)
      json.object([&] {
        json.attribute("name", method.name);
        json.attribute("values", method.values);
        json.attribute("instructions", method.instructions);
        json.attribute("delegate_entries", method.entries);
        json.attribute("delegate_calls", method.calls);
        json.attribute("kernel_calls", method.kernelCalls);
        json.attribute("planned_bytes", method.plannedBytes);
        if (method.methodAllocatorBytes.empty())
          json.attribute("method_allocator_bytes", nullptr);
        else
          json.attributeObject("method_allocator_bytes", [&] {
            for (auto [index, bytes] :
                 llvm::enumerate(method.methodAllocatorBytes))
              json.attribute(memory::getRuntimeTargets()[index].name, bytes);
          });
        json.attribute("payload_bytes_referenced", method.referencedBytes);
        json.attribute("payload_bytes_distinct", method.distinctBytes);
      });
  });
}

static void printCompiledForJSON(llvm::json::OStream &json,
                                 const Backend &backend) {
  json.attributeArray("compiled_for", [&] {
    for (const CompiledFor &target : backend.compiledFor)
      json.object([&] {
        json.attribute("compile_spec", target.key);
        printFieldsJSON(json, "settings", target.settings);
        json.attribute("delegate_entries", target.entries);
        json.attribute("problems", target.problems);
      });
  });
}

static void printBackendsJSON(llvm::json::OStream &json,
                              ArrayRef<Backend> backends) {
  json.attributeArray("backends", [&] {
    for (const Backend &backend : backends)
      json.object([&] {
        json.attribute("id", backend.id);
        json.attribute("delegate_entries", backend.entries);
        json.attributeArray("methods", [&] {
          for (const std::string &method : backend.methods)
            json.value(method);
        });
        json.attribute("payload_bytes_referenced", backend.referencedBytes);
        json.attribute("payload_bytes_distinct", backend.distinctBytes);
        printCompiledForJSON(json, backend);
      });
  });
}

static void printPayloadJSON(llvm::json::OStream &json,
                             const PayloadContents &payload) {
  auto bytesObject = [&](StringRef key, const auto &items) {
    json.attributeObject(key, [&] {
      for (const auto &[name, bytes] : items)
        json.attribute(name, bytes);
    });
  };
  json.attributeObject("payload", [&] {
    json.attribute("decoder", payload.decoder);
    json.attribute("magic", payload.magic);
    bytesObject("parts", payload.parts);
    bytesObject("constants_by_dtype", payload.constantsByDtype);
    json.attribute("named_constants", payload.namedConstants);
    json.attribute("named_constant_bytes", payload.namedConstantBytes);
    printFieldsJSON(json, "target", payload.target);
    json.attribute("nodes", payload.nodes ? llvm::json::Value(*payload.nodes)
                                          : llvm::json::Value(nullptr));
    json.attribute("values", payload.values ? llvm::json::Value(*payload.values)
                                            : llvm::json::Value(nullptr));
    json.attribute("problems", payload.problems);
  });
}

static void printBlobsJSON(llvm::json::OStream &json, ArrayRef<Blob> blobs) {
  json.attributeArray("blobs", [&] {
    for (const Blob &blob : blobs)
      json.object([&] {
        json.attribute("name", blob.name);
        json.attribute("size", blob.size);
        json.attribute("alignment", blob.alignment);
        json.attribute("kind", getKindKey(blob.kind));
        json.attributeArray("roles", [&] {
          for (const std::string &role : blob.roles)
            json.value(role);
        });
        json.attributeArray("users", [&] {
          for (const std::string &user : blob.users)
            json.value(user);
        });
        if (blob.payload)
          printPayloadJSON(json, *blob.payload);
      });
  });
}

void summary::printJSON(const Summary &summary, raw_ostream &os) {
  llvm::json::OStream json(os, /*IndentSize=*/2);
  json.object([&] {
    json.attribute("schema", "emit-summary-2");
    json.attribute(summary.dataFile ? "data_file" : "program", summary.name);
    if (summary.fileBytes)
      json.attribute("file_bytes", *summary.fileBytes);
    if (summary.flatbufferBytes)
      json.attribute("flatbuffer_bytes", *summary.flatbufferBytes);
    if (const auto &releases = summary.releases)
      json.attributeObject("runtime_releases", [&] {
        json.attribute("loading", releases->loading);
        json.attribute("oldest", releases->oldest
                                     ? llvm::json::Value(*releases->oldest)
                                     : llvm::json::Value(nullptr));
        json.attribute("newest", releases->newest
                                     ? llvm::json::Value(*releases->newest)
                                     : llvm::json::Value(nullptr));
      });
    if (summary.kernels)
      json.attribute("kernels", kernels::getKernelCheckJSON(*summary.kernels));
    if (const auto &suites = summary.testSuites)
      json.attributeObject("bundle", [&] {
        json.attribute("test_suites", suites->suites);
        json.attribute("test_cases", suites->testCases);
        if (suites->bytes)
          json.attribute("test_suite_bytes", *suites->bytes);
      });
    json.attribute("stored_bytes", summary.storedBytes);
    json.attribute("stored_bytes_after_dedup", summary.storedBytesAfterDedup);
    json.attribute("dedup_saves", summary.dedupSaves());
    json.attributeObject("bytes_by_kind", [&] {
      for (unsigned kind = 0; kind < kNumDataKinds; ++kind)
        json.attribute(getKindKey(DataKind(kind)), summary.bytesByKind[kind]);
    });
    if (summary.dataFile) {
      json.attribute("keys", summary.keys);
    } else {
      json.attribute("delegate_entries", summary.entryCount);
      json.attribute("delegate_calls", summary.callCount);
      json.attribute("payload_bytes_referenced", summary.referencedBytes);
      json.attribute("payload_bytes_stored", summary.storedPayloadBytes);
    }
    printMethodsJSON(json, summary.methods);
    printBackendsJSON(json, summary.backends);
    printBlobsJSON(json, summary.blobs);
    json.attributeArray("identical", [&] {
      for (const IdenticalGroup &group : summary.identical)
        json.object([&] {
          json.attribute("size", group.size);
          json.attributeArray("blobs", [&] {
            for (unsigned blob : group.blobs)
              json.value(summary.blobs[blob].name);
          });
        });
    });
  });
  os << "\n";
}

// RUN: emit-opt %s --et-share-blobs='scope=everywhere' --verify-diagnostics -o /dev/null
// RUN: emit-opt %s --et-share-segment-entries='scope=everywhere' --verify-diagnostics -o /dev/null

// The sharing passes check their scope as --dedup-delegate-blobs does,
// naming themselves.

// expected-error @below {{invalid scope 'everywhere' for --et-share-}}
module {
}

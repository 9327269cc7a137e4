/* Includes a header emit-memory --c-header wrote, checks at compile time
   what its macros say, and writes each program's array back to a file
   (argv[i]) so the test compares it with the program, byte for byte. */
#include <stdio.h>

#include HEADER

_Static_assert(CHAIN_FORWARD_BUFFER_COUNT == 1, "one planned buffer");
_Static_assert(CHAIN_FORWARD_BUFFER_1_BYTES == 80, "buffer 1 of forward");
_Static_assert(CHAIN_MAX_PLANNED_BYTES == 80, "forward plans the most");
_Static_assert(CHAIN_FORWARD_METHOD_ALLOCATOR_BYTES_32 < CHAIN_FORWARD_METHOD_ALLOCATOR_BYTES_64, "pointers are smaller");

static int writeArray(const char *path, const unsigned char *bytes,
                      unsigned long size, unsigned long alignment) {
  FILE *out = fopen(path, "wb");
  if (!out || fwrite(bytes, 1, size, out) != size)
    return 1;
  printf("%s aligned %d\n", path, (unsigned long)bytes % alignment == 0);
  return fclose(out);
}

int main(int argc, char **argv) {
  int failed = 0, next = 1;
  static const size_t forward[] = CHAIN_FORWARD_BUFFER_SIZES;
  printf("forward buffers %zu, allocator %u\n", sizeof(forward) / sizeof(*forward),
         (unsigned)CHAIN_FORWARD_METHOD_ALLOCATOR_BYTES);
#define NAME(PREFIX, TEXT) printf("method %s\n", TEXT);
  CHAIN_METHODS(NAME)
#define WRITE(ARRAY, PREFIX)                                                   \
  if (next < argc)                                                             \
    failed |= writeArray(argv[next++], ARRAY, PREFIX##_PTE_SIZE,               \
                         PREFIX##_PTE_ALIGNMENT);
  EMIT_PROGRAMS(WRITE)
  return failed;
}

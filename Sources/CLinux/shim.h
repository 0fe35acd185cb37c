// What SpeakEasyCore calls from the C library that Swift's Glibc module leaves out.
#ifdef __linux__
// mallopt and its M_* parameters (FreedMemory).
#include <malloc.h>

#include <fcntl.h>
// sync_file_range is declared by <fcntl.h> only under _GNU_SOURCE, which the Glibc module was built
// without; its prototype and flag from the man page (OutputFile).
#ifndef SYNC_FILE_RANGE_WRITE
#define SYNC_FILE_RANGE_WRITE 2
int sync_file_range(int fd, long long offset, long long nbytes, unsigned int flags);
#endif
// O_DIRECT is declared only under _GNU_SOURCE too; glibc's value for the architecture (OutputFile).
#define SPEAKEASY_O_DIRECT __O_DIRECT
#endif

#ifndef CMALLOCSTATS_H
#define CMALLOCSTATS_H
#include <stddef.h>

/// Bytes the allocator has handed out and not yet had back (glibc's mallinfo2().uordblks);
/// 0 where that statistic is unavailable.
size_t cmallocstats_in_use(void);

#endif

/* unwind_int.h — private parts of the unwinder shared by its files. */
#ifndef PERFEV_UNWIND_INT_H
#define PERFEV_UNWIND_INT_H

#include "perfev/unwind.h"

/* The architecture this library was built for (PERFEV_ARCH_HOST if neither). */
enum perfev_arch pv_host_arch(void);

#endif

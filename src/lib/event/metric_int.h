/* metric_int.h — the metric table (metric_table.c), read by count/metric.c (not API). */
#ifndef PERFEV_METRIC_INT_H
#define PERFEV_METRIC_INT_H

#include <stddef.h>
#include "perfev/metric.h"

extern const struct perfev_metric_info pv_metric_table[];
extern const size_t pv_metric_table_len;

#endif

/* list_int.h — what the listings share (event/list_print.c, count/metric_list.c). */
#ifndef PERFEV_EVENT_LIST_INT_H
#define PERFEV_EVENT_LIST_INT_H

#include <stdio.h>

/* Writes `, "KEY": "S"` on f, S JSON-escaped, or `, "KEY": null` for no S. */
void pv_list_json_key(FILE *f, const char *key, const char *s);

#endif

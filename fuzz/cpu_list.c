/* fuzz target: CPU lists ("0-3,7") as read from sysfs cpumask files and -C. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "perfev.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = 0;
	struct perfev_cpus *c = perfev_cpus_parse(s);
	if (c) {
		char buf[256];
		perfev_cpus_format(c, buf, sizeof(buf));
		for (size_t i = 0; i < perfev_cpus_count(c); i++)
			if (!perfev_cpus_has(c, perfev_cpus_at(c, i)))
				abort();
		perfev_cpus_free(c);
	}
	free(s);
	return 0;
}

/* time_ranges.c — perf's --time ranges of sample times, for report and
 * script alike (perf_time__parse_strs, perf_time__ranges_skip_sample):
 * "START,END" in seconds with at most nine decimals, parsed exactly to
 * nanoseconds, either end empty (the file's start or end), several ranges
 * separated by spaces; a sample is in when some range holds its time. */
#include "core/internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* "SECONDS[.FRACTION]" as nanoseconds (perf's parse_nsec_time: at most 9 digits). */
static int parse_time(const char *s, size_t len, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0;
	size_t i = 0, digits = 0;
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++, digits++) {
		if (sec > UINT64_MAX / 10 / 1000000000ull)
			return -1;
		sec = sec * 10 + (uint64_t)(s[i] - '0');
	}
	if (i < len && s[i] == '.') {
		size_t n = 0;
		for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++, n++) {
			if (n == 9)
				return -1;
			frac = frac * 10 + (uint64_t)(s[i] - '0');
		}
		for (size_t k = n; k < 9; k++)
			frac *= 10;
		digits += n;
	}
	if (i != len || !digits)
		return -1;
	*ns = sec * 1000000000ull + frac;
	return 0;
}

int pv_time_ranges_parse(const char *spec, struct pv_time_range **out, size_t *nr)
{
	struct pv_time_range *r = NULL;
	size_t n = 0;
	*out = NULL;
	*nr = 0;
	for (const char *c = spec; *c;) {
		while (*c == ' ')
			c++;
		if (!*c)
			break;
		size_t len = strcspn(c, " ");
		const char *comma = memchr(c, ',', len);
		uint64_t a = 0, b = UINT64_MAX;
		int err = 0;
		if (memchr(c, '%', len))
			err = pv_error(EINVAL, "--time '%s': percent ranges are not supported; give START,END "
				       "in seconds as perf script prints them (e.g. --time 2226.41,2227.1)", spec);
		else if (!comma || (comma > c && parse_time(c, (size_t)(comma - c), &a) < 0) ||
			 (comma + 1 < c + len && parse_time(comma + 1, (size_t)(c + len - comma - 1), &b) < 0) ||
			 a > b)
			err = pv_error(EINVAL, "--time '%s': '%.*s' is not START,END in seconds (either may be "
				       "empty, START not after END; several ranges separated by spaces)", spec,
				       (int)len, c);
		if (err) {
			free(r);
			return err;
		}
		struct pv_time_range *g = realloc(r, (n + 1) * sizeof(*g));
		if (!g) {
			free(r);
			return pv_error(ENOMEM, "out of memory parsing --time");
		}
		r = g;
		r[n++] = (struct pv_time_range){a, b};
		c += len;
	}
	*out = r;
	*nr = n;
	return 0;
}

bool pv_time_ranges_have(const struct pv_time_range *r, size_t nr, uint64_t time)
{
	if (!nr)
		return true;
	for (size_t i = 0; i < nr; i++)
		if (time >= r[i].start && time <= r[i].end)
			return true;
	return false;
}

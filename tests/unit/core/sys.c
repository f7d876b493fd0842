/* perfev_errname and perfev_strerror (perfev/sys.h): stateless, either sign. */
#include "support.h"

#include <perfev.h>

#include <errno.h>
#include <string.h>

Test(unit_sys, errname)
{
	cr_assert_str_eq(perfev_errname(EINVAL), "EINVAL");
	cr_assert_str_eq(perfev_errname(-EINVAL), "EINVAL");
	cr_assert_str_eq(perfev_errname(-ENOENT), "ENOENT");
	cr_assert_str_eq(perfev_errname(EACCES), "EACCES");
	cr_assert_str_eq(perfev_errname(EAGAIN), "EAGAIN");
	cr_assert_str_eq(perfev_errname(EOPNOTSUPP), "EOPNOTSUPP");
	cr_assert_str_eq(perfev_errname(E2BIG), "E2BIG");
	cr_assert_str_eq(perfev_errname(0), "UNKNOWN");
	cr_assert_str_eq(perfev_errname(100000), "UNKNOWN");
	cr_assert_str_eq(perfev_errname(-100000), "UNKNOWN");
}

Test(unit_sys, strerror_is_stateless)
{
	/* a failure recorded: perfev_errmsg has its context, strerror does not */
	struct perfev_symbolizer_opts o = {.sz = 1};
	cr_assert_null(perfev_symbolizer_new(&o));
	char before[512];
	snprintf(before, sizeof(before), "%s", perfev_errmsg());
	errno = EPERM;
	cr_assert_str_eq(perfev_strerror(-EINVAL), strerror(EINVAL));
	cr_assert_str_eq(perfev_strerror(ENOENT), strerror(ENOENT));
	cr_assert_str_eq(perfev_strerror(0), "Success");
	cr_assert_not_null(perfev_strerror(100000));
	cr_assert_eq(errno, EPERM);
	cr_assert_str_eq(perfev_errmsg(), before);
}

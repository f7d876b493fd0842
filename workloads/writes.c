/*
 * writes — exactly N write(2) calls (one byte each to /dev/null) and no
 * other write: syscalls:sys_enter_write counts N. usage: writes [N=100]
 */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100;
	int fd = open("/dev/null", O_WRONLY);
	if (fd < 0)
		return 1;
	for (long i = 0; i < n; i++)
		if (write(fd, "x", 1) != 1)
			return 1;
	return 0;
}

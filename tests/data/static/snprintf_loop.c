#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static volatile unsigned long sink;
__attribute__((noinline)) static void hash(const char *s) { unsigned long h = 5381; while (*s) h = h * 33 + (unsigned char)*s++; sink += h; }
int main(void) { char buf[256]; for (int i = 0; i < 2000000; i++) { snprintf(buf, sizeof(buf), "item-%d-%x", i, i * 7); hash(buf); char *p = malloc(64 + (i & 255)); memset(p, i, 64); free(p); } return 0; }

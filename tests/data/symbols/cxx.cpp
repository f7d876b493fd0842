// Symbols fixture: C++ names (namespaces, templates, methods, operators).
#include <cstdio>
#include <vector>

namespace shapes {
struct Circle {
	double r;
	__attribute__((noinline)) double area(int scale) const { return 3.14159 * r * r * scale; }
};

template <typename T> __attribute__((noinline)) T accumulate(const std::vector<T> &v)
{
	T s{};
	for (const T &x : v)
		s += x;
	return s;
}
} // namespace shapes

__attribute__((noinline)) int overloaded(int x) { return x + 1; }
__attribute__((noinline)) double overloaded(double x) { return x * 2; }

int main(int argc, char **)
{
	shapes::Circle c{2.0};
	std::vector<long> v{1, 2, 3, argc};
	std::printf("%f %ld %d %f\n", c.area(argc), shapes::accumulate(v), overloaded(argc),
		    overloaded(1.5));
	return 0;
}

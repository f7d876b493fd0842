// C++ names for tests/interop/symbols/lang_names.c: a class template, a member
// function, std::map and std::string code inlined into it, and two
// overloads that perf names alike ("ns::weigh") and keeps apart.
#include <map>
#include <string>
#include <vector>
static volatile long sink;
namespace ns {
template <typename T> struct Box {
	std::vector<T> v;
	T at(size_t i) const { return v[i]; }
};
struct Acc {
	Box<long> b;
	std::map<std::string, long> m;
	__attribute__((noinline)) long sum(int n) const
	{
		long s = 0;
		for (int k = 0; k < n; k++)
			for (size_t i = 0; i < b.v.size(); i++) {
				s += b.at(i) * k;
				sink = s;
			}
		return s;
	}
	__attribute__((noinline)) long look(int n)
	{
		long s = 0;
		for (int k = 0; k < n; k++)
			s += m["key" + std::to_string(k % 50)]++;
		return s;
	}
};
__attribute__((noinline)) long weigh(long n)
{
	for (long i = 0; i < n; i++)
		sink += i;
	return sink;
}
__attribute__((noinline)) long weigh(double d)
{
	for (long i = 0; i < (long)d; i++)
		sink += i * 3;
	return sink;
}
} // namespace ns
int main()
{
	ns::Acc a;
	a.b.v.assign(1000, 3);
	long t = 0;
	for (int i = 0; i < 1500; i++) {
		t += a.sum(100 + (i & 1));
		t += a.look(200);
		t += ns::weigh(40000L) + ns::weigh(60000.0);
	}
	return (int)(t & 1);
}

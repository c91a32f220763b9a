/* Driver of ../unwind-check.test: calls f and g of the object under test. */
int f(int);
int g(int);
int main(void) { return f(1) + g(2) == 7 ? 0 : 1; }

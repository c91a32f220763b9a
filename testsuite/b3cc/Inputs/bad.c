int f(void) { return undeclared_thing; }

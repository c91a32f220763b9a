#define N 16
double mean(const double *v, int n);
double stddev(const double *v, int n);

/* Minimal <math.h> for the test drivers' macOS link (see stdio.h). */
#ifndef B3_TEST_MATH_H
#define B3_TEST_MATH_H
#define NAN __builtin_nanf("")
#define INFINITY __builtin_inff()
#define HUGE_VAL __builtin_huge_val()
#define isnan(x) __builtin_isnan(x)
#define isinf(x) __builtin_isinf(x)
#define isfinite(x) __builtin_isfinite(x)
#define signbit(x) __builtin_signbit(x)
double sqrt(double);
float sqrtf(float);
double fabs(double);
float fabsf(float);
double floor(double);
float floorf(float);
double ceil(double);
float ceilf(float);
double trunc(double);
float truncf(float);
double round(double);
float roundf(float);
double rint(double);
float rintf(float);
double nearbyint(double);
float nearbyintf(float);
double fmod(double, double);
float fmodf(float, float);
double fmin(double, double);
float fminf(float, float);
double fmax(double, double);
float fmaxf(float, float);
double copysign(double, double);
float copysignf(float, float);
double pow(double, double);
double exp(double);
double log(double);
double sin(double);
double cos(double);
#endif

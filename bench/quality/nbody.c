/* N-body (the Computer Language Benchmarks Game program: five planets,
 * symplectic integrator), over a global array of bodies that each call resets
 * from a read-only copy: see nbody.b3.  Returns the bits of the energy after
 * `steps` steps of 0.01. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#define PI 3.141592653589793
#define SOLAR_MASS (4 * PI * PI)
#define DAYS_PER_YEAR 365.24
#define NBODIES 5

struct body {
    double x, y, z, vx, vy, vz, mass;
};

static const struct body nbody_init[NBODIES] = {
    {0, 0, 0, 0, 0, 0, SOLAR_MASS},
    {4.84143144246472090e+00, -1.16032004402742839e+00, -1.03622044471123109e-01,
     1.66007664274403694e-03 * DAYS_PER_YEAR, 7.69901118419740425e-03 * DAYS_PER_YEAR,
     -6.90460016972063023e-05 * DAYS_PER_YEAR, 9.54791938424326609e-04 * SOLAR_MASS},
    {8.34336671824457987e+00, 4.12479856412430479e+00, -4.03523417114321381e-01,
     -2.76742510726862411e-03 * DAYS_PER_YEAR, 4.99852801234917238e-03 * DAYS_PER_YEAR,
     2.30417297573763929e-05 * DAYS_PER_YEAR, 2.85885980666130812e-04 * SOLAR_MASS},
    {1.28943695621391310e+01, -1.51111514016986312e+01, -2.23307578892655734e-01,
     2.96460137564761618e-03 * DAYS_PER_YEAR, 2.37847173959480950e-03 * DAYS_PER_YEAR,
     -2.96589568540237556e-05 * DAYS_PER_YEAR, 4.36624404335156298e-05 * SOLAR_MASS},
    {1.53796971148509165e+01, -2.59193146099879641e+01, 1.79258772950371181e-01,
     2.68067772490389322e-03 * DAYS_PER_YEAR, 1.62824170038242295e-03 * DAYS_PER_YEAR,
     -9.51592254519715870e-05 * DAYS_PER_YEAR, 5.15138902046611451e-05 * SOLAR_MASS},
};

static struct body nbody_bodies[NBODIES];

static void nbody_advance(double dt)
{
    for (int32_t i = 0; i < NBODIES; i++) {
        struct body *bi = &nbody_bodies[i];
        for (int32_t j = i + 1; j < NBODIES; j++) {
            struct body *bj = &nbody_bodies[j];
            double dx = bi->x - bj->x;
            double dy = bi->y - bj->y;
            double dz = bi->z - bj->z;
            double d2 = dx * dx + dy * dy + dz * dz;
            double mag = dt / (d2 * sqrt(d2));
            bi->vx -= dx * bj->mass * mag;
            bi->vy -= dy * bj->mass * mag;
            bi->vz -= dz * bj->mass * mag;
            bj->vx += dx * bi->mass * mag;
            bj->vy += dy * bi->mass * mag;
            bj->vz += dz * bi->mass * mag;
        }
    }
    for (int32_t i = 0; i < NBODIES; i++) {
        struct body *b = &nbody_bodies[i];
        b->x += dt * b->vx;
        b->y += dt * b->vy;
        b->z += dt * b->vz;
    }
}

static double nbody_energy(void)
{
    double e = 0.0;
    for (int32_t i = 0; i < NBODIES; i++) {
        struct body *bi = &nbody_bodies[i];
        e += 0.5 * bi->mass * (bi->vx * bi->vx + bi->vy * bi->vy + bi->vz * bi->vz);
        for (int32_t j = i + 1; j < NBODIES; j++) {
            struct body *bj = &nbody_bodies[j];
            double dx = bi->x - bj->x;
            double dy = bi->y - bj->y;
            double dz = bi->z - bj->z;
            e -= (bi->mass * bj->mass) / sqrt(dx * dx + dy * dy + dz * dz);
        }
    }
    return e;
}

uint64_t kernel_nbody_c(int32_t steps)
{
    memcpy(nbody_bodies, nbody_init, sizeof nbody_bodies);
    double px = 0.0, py = 0.0, pz = 0.0;
    for (int32_t i = 0; i < NBODIES; i++) {
        px += nbody_bodies[i].vx * nbody_bodies[i].mass;
        py += nbody_bodies[i].vy * nbody_bodies[i].mass;
        pz += nbody_bodies[i].vz * nbody_bodies[i].mass;
    }
    nbody_bodies[0].vx = -px / SOLAR_MASS;
    nbody_bodies[0].vy = -py / SOLAR_MASS;
    nbody_bodies[0].vz = -pz / SOLAR_MASS;
    for (int32_t s = 0; s < steps; s++)
        nbody_advance(0.01);
    double e = nbody_energy();
    uint64_t bits;
    memcpy(&bits, &e, sizeof bits);
    return bits;
}

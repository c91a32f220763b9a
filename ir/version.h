/* b3c's version: --version prints it, -g names the producer with it. */
#ifndef B3_VERSION_H
#define B3_VERSION_H

#define B3C_VERSION "0.1.0"

#endif

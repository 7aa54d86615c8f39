/* What Sources/QuireEmbed imports: the public types, with the handle's private layout. C
 * programs include <quire.h>, where QuireEngine stays an incomplete (opaque) type. */
#define QUIRE_COMPILATION 1
#include "include/quire-types.h"

// libadwaita 1.2 (Debian 12) as Swift sees it: the app's chrome only (QuireApp). The library
// targets (QuireGtk, QuireEmbedGtk: libquire-gtk) never import it, so their hosts need no
// libadwaita. Include paths and the library come from pkg-config's libadwaita-1 (Package.swift).
//
// GTK first, through the CGtk module: its include guards are then visible here, so <adwaita.h>
// does not copy GTK's declarations into this module (GTK's types stay CGtk's, one of each).
#include "../CGtk/CGtk.h"
#include <adwaita.h>

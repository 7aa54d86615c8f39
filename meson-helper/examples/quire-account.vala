// quire-account.vala — a page that applies its answers through the host, from Vala: the account
// page of data/flows/account-apply.json, with a fake server (a GLib timeout) that says the name
// "admin" is taken. Prints what happened, a line each, and the page it ends on.
//
//   quire-account-vala FLOW

int main (string[] args) {
    Quire.Session session;
    try {
        session = new Quire.Session.from_file (args[1]);
    } catch (Error e) {
        printerr ("quire-account: %s\n", e.message);
        return 2;
    }
    var loop = new MainLoop ();
    session.apply_requested.connect ((self, page, values, cancellable) => {
        var name = values.get_object ().get_string_member ("userName");
        var answered_page = page;
        Timeout.add (50, () => {
            if (!cancellable.is_cancelled ()) {
                try {
                    if (name == "admin")
                        self.apply_finish (answered_page, "{\"userName\": {\"code\": \"taken\", \"message\": \"That name is taken\"}}", null);
                    else
                        self.apply_finish (answered_page, null, null);
                } catch (Error e) {
                    printerr ("quire-account: %s\n", e.message);
                }
            }
            loop.quit ();
            return Source.REMOVE;
        });
    });
    try {
        send_next (session, loop);
        session.send ("{\"tap\": \"userName\"}");
        session.send ("{\"type\": \"admin\"}");
        send_next (session, loop);
        var errors = session.get_state ().get_object ().get_object_member ("errors");
        print ("admin: %s\n", Json.to_string (new Json.Node.alloc ().init_object (errors), false));
        session.send ("{\"tap\": \"userName\"}");
        for (int i = 0; i < 5; i++)
            session.send ("{\"key\": \"BackSpace\"}");
        session.send ("{\"type\": \"aki\"}");
        send_next (session, loop);
    } catch (Error e) {
        printerr ("quire-account: %s\n", e.message);
        return 2;
    }
    print ("page: %s\n", session.page_id);
    return session.page_id == "created" ? 0 : 1;
}

void send_next (Quire.Session session, MainLoop loop) throws Error {
    session.send ("{\"tap\": \"button:next\"}");
    if (!session.get_state ().get_object ().get_member ("applying").is_null ())
        loop.run ();
    session.send ("{\"settle\": true}");
}

#!/usr/bin/env -S gjs -m
// quire-account.js — a page that applies its answers through the host, from GJS: the account
// page of data/flows/account-apply.json, with a fake server (a GLib timeout) that says the name
// "admin" is taken. Prints what happened, a line each, and the page it ends on.
//
//   gjs -m quire-account.js FLOW
import GLib from 'gi://GLib';
import Quire from 'gi://Quire?version=1.0';
import System from 'system';

const session = Quire.Session.new_from_file(ARGV[0]);
const loop = new GLib.MainLoop(null, false);
session.connect('apply-requested', (self, page, values, cancellable) => {
    // (`values` is a JsonNode: the answers to apply.)
    const name = values.get_object().get_string_member('userName');
    GLib.timeout_add(GLib.PRIORITY_DEFAULT, 50, () => {
        if (!cancellable.is_cancelled()) {
            if (name === 'admin')
                self.apply_finish(page, JSON.stringify({userName: {code: 'taken', message: 'That name is taken'}}), null);
            else
                self.apply_finish(page, null, null);
        }
        loop.quit();
        return GLib.SOURCE_REMOVE;
    });
});
const send = event => session.send(JSON.stringify(event));
const state = () => JSON.parse(session.get_state_json());

function next() {
    send({tap: 'button:next'});
    if (state().applying !== null)
        loop.run();
    send({settle: true});
}

next();
send({tap: 'userName'});
send({type: 'admin'});
next();
print(`admin: ${JSON.stringify(state().errors)}`);
send({tap: 'userName'});
for (let i = 0; i < 5; i++)
    send({key: 'BackSpace'});
send({type: 'aki'});
next();
print(`page: ${session.page_id}`);
System.exit(session.page_id === 'created' ? 0 : 1);

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/outbox"
)

// runMail is "congod mail ID": the text of mail ID of the outbox, as it
// was queued (and sent, when it was), for the operator to read: the
// database keeps it compressed.
func runMail(ctx context.Context, cfg *settings, args []string, stdout, stderr io.Writer) error {
	id, err := 0, error(nil)
	if len(args) == 1 {
		id, err = strconv.Atoi(args[0])
	}
	if len(args) != 1 || err != nil || id <= 0 {
		fmt.Fprintln(stderr, "usage: congod [-config FILE | -db PATH] mail ID (the id of a mail of the outbox, as the log names it)")
		return errUsage
	}
	if err := cfg.checkDB(); err != nil {
		return err
	}
	store, err := db.Open(ctx, cfg.DB)
	if err != nil {
		return err
	}
	defer store.Close()
	var m db.Mail
	err = store.Read(ctx, func(tx *db.Tx) error {
		m, err = tx.Mail(ctx, int64(id))
		return err
	})
	if errors.Is(err, db.ErrNotFound) {
		return fmt.Errorf("no mail %d in the outbox (mail sent is kept %d days)", id, int(outbox.KeepSent.Hours()/24))
	}
	if err != nil {
		return err
	}
	_, err = stdout.Write(m.Raw)
	return err
}

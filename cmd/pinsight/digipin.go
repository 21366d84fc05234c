package main

import (
	"fmt"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/pinsight/pinsight/digipin"
)

func newDigipinCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "digipin", Short: "Encode and decode DIGIPIN codes offline"}
	cmd.AddCommand(&cobra.Command{
		Use:   "encode LAT LON",
		Short: "Print the DIGIPIN of a point",
		Args:  cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			lat, err := strconv.ParseFloat(args[0], 64)
			if err != nil {
				return fmt.Errorf("latitude %q is not a number", args[0])
			}
			lon, err := strconv.ParseFloat(args[1], 64)
			if err != nil {
				return fmt.Errorf("longitude %q is not a number", args[1])
			}
			code, err := digipin.Encode(lat, lon)
			if err != nil {
				return err
			}
			fmt.Fprintln(cmd.OutOrStdout(), code)
			return nil
		},
	}, &cobra.Command{
		Use:   "decode CODE",
		Short: "Print the centre of a code's cell as LAT LON (6 decimals)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			lat, lon, err := digipin.Decode(args[0])
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%.6f %.6f\n", lat, lon)
			return nil
		},
	})
	return cmd
}

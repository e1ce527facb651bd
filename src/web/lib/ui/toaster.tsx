// The toast library and its styles, loaded with the first toast rather than with the first page.
// Its stylesheet comes as a file: sonner would otherwise inject it as an inline <style>, which a
// strict Content-Security-Policy may block.
import "sonner/dist/styles.css";
import "./toaster.css";

export { Toaster, toast } from "sonner";

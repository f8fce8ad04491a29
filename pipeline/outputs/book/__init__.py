"""The PDF edition's parts; pdf.py holds its stages (start_pdf, finish_pdf, write_pdf)."""

func main() => integer
begin
    assert X() == 0;
    return 0;
end;
